extension Tokenizer {
    /// Token ids of `text`, as llama.cpp's `llama_tokenize(vocab, text, add_special, parse_special)`.
    ///
    /// - Parameters:
    ///   - addBOS: `nil` adds the model's default special tokens (BOS when ``addsBOS``, EOS when
    ///     ``addsEOS``), as `add_special = true`; `true` prepends BOS (when the vocabulary has one)
    ///     and appends EOS when ``addsEOS``; `false` adds neither. WordPiece (BERT) adds `[CLS]` and
    ///     `[SEP]` in both cases where special tokens are added, as llama.cpp.
    ///   - parseSpecial: when `true`, the text of control tokens (`<|im_start|>`) becomes that one
    ///     token; when `false` it is tokenized as plain text. User-defined tokens are always
    ///     matched whole, as in llama.cpp, except those in `literal`.
    ///   - literal: special tokens whose text is always tokenized as plain text, even user-defined ones
    ///     (a chat template's turn markers inside message text; not in llama.cpp).
    /// - Returns: ids in `0 ..< vocabularySize`.
    public func encode(_ text: String, addBOS: Bool? = nil, parseSpecial: Bool = false, literal: Set<Int> = []) -> [Int] {
        let addSpecial = addBOS ?? true
        var out: [Int32] = []
        out.reserveCapacity(text.utf8.count / 3 + 2)
        var wantBOS = addBOS ?? addsBOS
        var wantEOS = addSpecial && addsEOS
        if case .wpm = engine { wantBOS = addSpecial; wantEOS = false }
        if wantBOS, let bos = bosID { out.append(Int32(bos)) }
        var copy = text
        copy.withUTF8 { bytes in
            let fragments = specials.partition(bytes, parseSpecial: parseSpecial, excluding: literal)
            switch engine {
            case let .bpe(bpe, pre, escapesSpaces):
                var state = BPEState()
                for f in fragments {
                    switch f {
                    case let .token(id):
                        out.append(Int32(id))
                    case let .text(r) where escapesSpaces:
                        EscapedSpace.escape(UnsafeBufferPointer(rebasing: bytes[r]), prefix: false, into: &state.escaped)
                        let escaped = state.escaped
                        escaped.withUnsafeBufferPointer { encodeBPE($0, bpe, pre, &state, &out) }
                    case let .text(r):
                        encodeBPE(UnsafeBufferPointer(rebasing: bytes[r]), bpe, pre, &state, &out)
                    }
                }
            case let .spm(spm):
                var scratch = SPMModel.Scratch()
                var escaped: [UInt8] = []
                var previousWasSpecial = true
                for f in fragments {
                    switch f {
                    case let .token(id):
                        out.append(Int32(id))
                        previousWasSpecial = true
                    case let .text(r):
                        EscapedSpace.escape(UnsafeBufferPointer(rebasing: bytes[r]), prefix: addSpacePrefix && previousWasSpecial, into: &escaped)
                        escaped.withUnsafeBufferPointer { spm.encode($0, table: table, into: &out, scratch: &scratch) }
                        previousWasSpecial = false
                    }
                }
            case let .wpm(wpm):
                var scratch = WordPieceModel.Scratch()
                for f in fragments {
                    switch f {
                    case let .token(id): out.append(Int32(id))
                    case let .text(r): wpm.encode(UnsafeBufferPointer(rebasing: bytes[r]), table: table, into: &out, scratch: &scratch)
                    }
                }
                if addSpecial, let sep = sepID { out.append(Int32(sep)) }
            }
        }
        if !literal.isEmpty, out.contains(where: { literal.contains(Int($0)) }) { out = spellingOut(literal, in: out) }
        if wantEOS, let eos = eosID { out.append(Int32(eos)) }
        return out.map { Int($0) }
    }

    /// `tokens` with every token of `literal` that the merges produced (SentencePiece merges into any
    /// vocabulary entry, user-defined ones included) replaced by its bytes' tokens: `<0xNN>` for
    /// SentencePiece, the byte's character for byte-level BPE.
    private func spellingOut(_ literal: Set<Int>, in tokens: [Int32]) -> [Int32] {
        var out: [Int32] = []
        out.reserveCapacity(tokens.count + 8)
        for token in tokens {
            guard literal.contains(Int(token)) else { out.append(token); continue }
            for byte in piece(Int(token), special: true) {
                let id: Int32?
                switch engine {
                case let .spm(spm): id = spm.byteToken[Int(byte)] >= 0 ? spm.byteToken[Int(byte)] : nil
                case .bpe: id = table.id(of: ByteLevel.encodedByte[Int(byte)]).map(Int32.init)
                case .wpm: id = nil   // WordPiece has no byte tokens; its specials are all control tokens
                }
                if let id { out.append(id) }
            }
        }
        return out
    }

    struct BPEState {
        var preTokenizer = PreTokenizer.Scratch()
        var ends: [Int] = []
        var escaped: [UInt8] = []
        var scratch = BPEModel.Scratch()
        var wordTokens: [Int32] = []
    }

    /// Pre-tokenizes one raw fragment and merges each word, through the word cache.
    private func encodeBPE(_ bytes: UnsafeBufferPointer<UInt8>, _ bpe: BPEModel, _ pre: PreTokenizer,
                           _ s: inout BPEState, _ out: inout [Int32]) {
        pre.words(bytes, scratch: &s.preTokenizer, into: &s.ends)
        var start = 0
        for end in s.ends {
            let lo = Int(s.preTokenizer.codePoints.byteStarts[start]), hi = Int(s.preTokenizer.codePoints.byteStarts[end])
            start = end
            let word = UnsafeBufferPointer(rebasing: bytes[lo ..< hi])
            guard word.count <= Self.cachedWordLength else {
                bpe.encodeWord(word, table: table, into: &out, scratch: &s.scratch)
                continue
            }
            let key = Array(word)
            if let cached = wordCache.withLock({ $0[key] }) {
                out.append(contentsOf: cached)
                continue
            }
            s.wordTokens.removeAll(keepingCapacity: true)
            bpe.encodeWord(word, table: table, into: &s.wordTokens, scratch: &s.scratch)
            out.append(contentsOf: s.wordTokens)
            let tokens = s.wordTokens
            wordCache.withLock { cache in
                if cache.count >= Self.wordCacheLimit { cache.removeAll(keepingCapacity: true) }
                cache[key] = tokens
            }
        }
    }
}
