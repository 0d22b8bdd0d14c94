extension TokenAttributes {
    /// Adds llama.cpp's per-model `lstrip` / `rstrip` attributes (the end of
    /// `llama_vocab::impl::load`; GGUF has no key for them, so llama.cpp decides by name):
    /// - `tokenizer.ggml.pre` containing `jina-v2-de`, `jina-v2-es` or `jina-v2-code`, or
    ///   `general.architecture` containing `nomic-bert-moe` or `jina-bert-v3`: `<mask>` strips left.
    /// - else `general.name` (lowercased) containing `phi-3` or `phi3`: every special token strips
    ///   right, and so does `</s>`, except `<unk>`, `<s>` and `<|endoftext|>`.
    /// - else `general.name` containing `modern-bert`: `[MASK]` strips left.
    ///
    /// Tokens llama.cpp names that the vocabulary lacks are skipped (llama.cpp fails to load).
    static func applyStripRules(reader: MetadataReader, table: TokenTable, attributes: inout [TokenAttributes]) throws(TokenizerError) {
        // ASCII lowercasing, as llama.cpp's `std::tolower` per byte.
        let name = String(decoding: (try reader.string("general.name") ?? "").utf8.map { (0x41 ... 0x5A).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
        let pre = try reader.string(TokenizerKey.pre) ?? ""
        let architecture = try reader.string("general.architecture") ?? ""
        func set(_ text: String, _ attribute: TokenAttributes, _ on: Bool) {
            guard let id = table.id(of: Array(text.utf8)) else { return }
            if on { attributes[id].insert(attribute) } else { attributes[id].remove(attribute) }
        }
        if ["jina-v2-de", "jina-v2-es", "jina-v2-code"].contains(where: pre.contains)
            || ["nomic-bert-moe", "jina-bert-v3"].contains(where: architecture.contains) {
            set("<mask>", .lstrip, true)
        } else if name.contains("phi-3") || name.contains("phi3") {
            for i in attributes.indices where !attributes[i].isDisjoint(with: [.control, .userDefined, .unknown]) {
                attributes[i].insert(.rstrip)
            }
            set("</s>", .rstrip, true)
            for text in ["<unk>", "<s>", "<|endoftext|>"] { set(text, .rstrip, false) }
        } else if name.contains("modern-bert") {
            set("[MASK]", .lstrip, true)
        }
    }
}
