/// BPE pre-tokenizers: split text into words before merges, as llama.cpp's `unicode_regex_split`
/// does for each `tokenizer.ggml.pre`. Hand-written matchers replace the regexes (Swift `Regex`
/// is far too slow for this), each following llama.cpp's own custom matcher step by step.
///
/// All splitters work on code points and append the exclusive end index of every word to `ends`.
enum PreTokenizer: Sendable, Equatable {
    /// GPT-2: `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`.
    case gpt2
    /// StarCoder / SmolLM: each `\p{N}` on its own first, then the GPT-2 pattern.
    case digitsThenGPT2
    /// Llama 3: `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
    /// ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`.
    case llama3
    /// Qwen 2: the Llama 3 pattern with single digits (`\p{N}` instead of `\p{N}{1,3}`).
    case qwen2

    /// The pre-tokenizer for a `tokenizer.ggml.pre` value, grouped as in llama.cpp's
    /// `llama_vocab::impl::load`; `nil` for names LMSession does not implement.
    init?(name: String) {
        switch name {
        case "gpt2", "gpt-2", "phi-2", "jina-es", "jina-de", "gigachat", "jina-v2-es", "jina-v2-de",
             "a.x-4.0", "mellum", "modern-bert", "mpt", "olmo", "jais", "trillion", "granite-docling", "exaone4":
            self = .gpt2
        case "smollm", "starcoder", "refact", "command-r", "codeshell", "exaone", "minerva-7b":
            self = .digitsThenGPT2
        case "llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2",
             "dbrx", "smaug-bpe":
            self = .llama3
        case "qwen2", "deepseek-r1-qwen", "stablelm2", "megrez":
            self = .qwen2
        default:
            return nil
        }
    }

    func split(_ cps: UnsafeBufferPointer<UInt32>, _ cls: UnsafeBufferPointer<UInt8>, into ends: inout [Int]) {
        let n = cps.count
        switch self {
        case .gpt2:
            Self.gpt2(cps, cls, 0, n, &ends)
        case .digitsThenGPT2:
            // The `\p{N}` pass keeps the text between matches as pieces of its own.
            var start = 0
            for i in 0..<n where cls[i] & ScalarClass.number != 0 {
                if i > start { Self.gpt2(cps, cls, start, i, &ends) }
                ends.append(i + 1)
                start = i + 1
            }
            if start < n { Self.gpt2(cps, cls, start, n, &ends) }
        case .llama3:
            Self.llama3(cps, cls, 0, n, maxDigits: 3, &ends)
        case .qwen2:
            Self.llama3(cps, cls, 0, n, maxDigits: 1, &ends)
        }
    }

    private static let apostrophe: UInt32 = 0x27, space: UInt32 = 0x20, cr: UInt32 = 0x0D, lf: UInt32 = 0x0A

    /// llama.cpp `unicode_regex_split_custom_gpt2` over `lo..<hi`.
    static func gpt2(_ cps: UnsafeBufferPointer<UInt32>, _ cls: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int, _ ends: inout [Int]) {
        let L = ScalarClass.letter, N = ScalarClass.number, S = ScalarClass.whitespace
        @inline(__always) func flags(_ p: Int) -> UInt8 { p < hi ? cls[p] : 0 }
        var pos = lo
        while pos < hi {
            let c = cps[pos]
            if c == apostrophe && pos + 1 < hi {
                let c1 = cps[pos + 1]
                if c1 == 0x73 || c1 == 0x74 || c1 == 0x6D || c1 == 0x64 { // s t m d
                    pos += 2; ends.append(pos); continue
                }
                if pos + 2 < hi {
                    let c2 = cps[pos + 2]
                    if (c1 == 0x72 && c2 == 0x65) || (c1 == 0x76 && c2 == 0x65) || (c1 == 0x6C && c2 == 0x6C) { // re ve ll
                        pos += 3; ends.append(pos); continue
                    }
                }
            }
            let f2 = c == space ? flags(pos + 1) : cls[pos]
            if f2 & L != 0 {
                if c == space { pos += 1 }
                while flags(pos) & L != 0 { pos += 1 }
                ends.append(pos); continue
            }
            if f2 & N != 0 {
                if c == space { pos += 1 }
                while flags(pos) & N != 0 { pos += 1 }
                ends.append(pos); continue
            }
            if f2 & (S | L | N) == 0 && f2 != 0 {
                if c == space { pos += 1 }
                while true {
                    let f = flags(pos)
                    if f & (S | L | N) != 0 || f == 0 { break }
                    pos += 1
                }
                ends.append(pos); continue
            }
            var spaces = 0
            while flags(pos + spaces) & S != 0 { spaces += 1 }
            if spaces > 1 && pos + spaces < hi {
                // \s+(?!\S): leave the last space to start the next word.
                pos += spaces - 1
            } else if spaces > 0 {
                pos += spaces
            } else {
                pos += 1
            }
            ends.append(pos)
        }
    }

    /// llama.cpp `unicode_regex_split_custom_llama3` over `lo..<hi`, with `\p{N}{1,maxDigits}`.
    static func llama3(_ cps: UnsafeBufferPointer<UInt32>, _ cls: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int,
                       maxDigits: Int, _ ends: inout [Int]) {
        let L = ScalarClass.letter, N = ScalarClass.number, S = ScalarClass.whitespace
        @inline(__always) func flags(_ p: Int) -> UInt8 { p < hi ? cls[p] : 0 }
        @inline(__always) func cpt(_ p: Int) -> UInt32 { p < hi ? cps[p] : 0xFFFF_FFFF }
        @inline(__always) func lower(_ c: UInt32) -> UInt32 { (0x41...0x5A).contains(c) ? c + 32 : c }
        var prevEnd = lo
        @inline(__always) func add(_ end: Int) {
            if end > prevEnd { ends.append(end) }
            prevEnd = end
        }
        var pos = lo
        while pos < hi {
            let c = cps[pos]
            let f = cls[pos]
            if c == apostrophe && pos + 1 < hi {
                let c1 = lower(cps[pos + 1])
                if c1 == 0x73 || c1 == 0x74 || c1 == 0x6D || c1 == 0x64 {
                    pos += 2; add(pos); continue
                }
                if pos + 2 < hi {
                    let c2 = lower(cps[pos + 2])
                    if (c1 == 0x72 && c2 == 0x65) || (c1 == 0x76 && c2 == 0x65) || (c1 == 0x6C && c2 == 0x6C) {
                        pos += 3; add(pos); continue
                    }
                }
            }
            // [^\r\n\p{L}\p{N}]?\p{L}+
            if !(c == cr || c == lf || f & N != 0) {
                if f & L != 0 || flags(pos + 1) & L != 0 {
                    pos += 1
                    while flags(pos) & L != 0 { pos += 1 }
                    add(pos); continue
                }
            }
            // \p{N}{1,maxDigits}
            if f & N != 0 {
                var ini = pos
                while flags(pos) & N != 0 {
                    pos += 1
                    if pos - ini >= maxDigits { add(pos); ini = pos }
                }
                add(pos); continue
            }
            // ?[^\s\p{L}\p{N}]+[\r\n]*
            let f2 = c == space ? flags(pos + 1) : f
            if f2 & (S | L | N) == 0 && f != 0 {
                if c == space { pos += 1 }
                while true {
                    let g = flags(pos)
                    if g & (S | L | N) != 0 || g == 0 { break }
                    pos += 1
                }
                while cpt(pos) == cr || cpt(pos) == lf { pos += 1 }
                add(pos); continue
            }
            var spaces = 0
            var lastNewlineEnd = 0
            while flags(pos + spaces) & S != 0 {
                let c2 = cpt(pos + spaces)
                if c2 == cr || c2 == lf { lastNewlineEnd = pos + spaces + 1 }
                spaces += 1
            }
            if lastNewlineEnd > 0 {
                pos = lastNewlineEnd // \s*[\r\n]+
            } else if spaces > 1 && pos + spaces < hi {
                pos += spaces - 1    // \s+(?!\S)
            } else if spaces > 0 {
                pos += spaces        // \s+
            } else {
                pos += 1
            }
            add(pos)
        }
    }
}

extension Tokenizer {
    /// The words the pre-tokenizer named `name` (a `tokenizer.ggml.pre` value) splits `text` into,
    /// before byte-level mapping and merges; `nil` for names not implemented. For tests and tools.
    package static func preTokenizedWords(of text: String, preTokenizer name: String) -> [String]? {
        guard let pre = PreTokenizer(name: name) else { return nil }
        let bytes = Array(text.utf8)
        var scalars: [UInt32] = [], classes: [UInt8] = [], starts: [Int32] = [], ends: [Int] = []
        bytes.withUnsafeBufferPointer { ScalarClass.decode($0, scalars: &scalars, classes: &classes, byteStarts: &starts) }
        scalars.withUnsafeBufferPointer { cps in classes.withUnsafeBufferPointer { pre.split(cps, $0, into: &ends) } }
        var start = 0
        return ends.map { end in
            defer { start = end }
            return String(decoding: bytes[Int(starts[start]) ..< Int(starts[end])], as: UTF8.self)
        }
    }
}
