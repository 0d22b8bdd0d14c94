// Apple 27: a mutable transcript. Edit a session's transcript (trim old turns after
// `exceededContextWindowSize`, drop a failed prompt) through `LanguageModelSession.transcript`.

extension Transcript: MutableCollection, RangeReplaceableCollection {
    /// An empty transcript.
    public init() {
        self.init(entries: [])
    }

    /// Replaces the entries in `subrange` with `newEntries`.
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newEntries: C) where C.Element == Entry {
        entries.replaceSubrange(subrange, with: newEntries)
    }

    /// Every entry after the leading `.instructions` entry (all of them when there is none): the turns.
    /// Setting it keeps the instructions and replaces the turns. (Apple 27.0 beta's `ArraySlice` shape; 27.1
    /// names a `HistoryView` type.)
    public var history: ArraySlice<Entry> {
        get { entries[historyStart...] }
        set { entries.replaceSubrange(historyStart..., with: newValue) }
    }

    private var historyStart: Int {
        if case .instructions = entries.first { 1 } else { 0 }
    }
}
