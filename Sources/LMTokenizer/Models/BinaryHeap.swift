/// A binary min-heap: `pop` returns the element that is `<` all others (ties in any order, so
/// elements carry their own tie-breaks). The merge loops of both tokenizers use it as their
/// priority queue, as llama.cpp uses `std::priority_queue`.
struct BinaryHeap<Element: Comparable> {
    private(set) var elements: [Element] = []

    var isEmpty: Bool { elements.isEmpty }

    mutating func removeAll() { elements.removeAll(keepingCapacity: true) }

    mutating func push(_ e: Element) {
        elements.append(e)
        var i = elements.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard elements[i] < elements[parent] else { break }
            elements.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> Element? {
        guard let last = elements.popLast() else { return nil }
        guard !elements.isEmpty else { return last }
        let top = elements[0]
        elements[0] = last
        let n = elements.count
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < n && elements[l] < elements[m] { m = l }
            if r < n && elements[r] < elements[m] { m = r }
            if m == i { break }
            elements.swapAt(i, m)
            i = m
        }
        return top
    }
}
