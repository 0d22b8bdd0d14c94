import Foundation
import LMImage
import LMTokenizer
import LMTransformer
import LMVision
import Synchronization

/// The image half of a local vision model: the `mmproj` file's encoder (LMVision) and the tokens that frame an
/// image's embeddings in the prompt, as llama.cpp's `mtmd` (release b11312, `tools/mtmd/mtmd.cpp`) places them.
///
/// In a prompt an image is a run of rows whose ids are negative placeholders (``placeholder(key:row:)``): the
/// image's key (a hash of its encoded bytes) and the row. The KV cache records them like token ids, so a later
/// turn with the same image at the same place reuses its keys and values; the rows' embeddings are computed
/// (``embeddings(key:)``) only for rows that are not cached.
///
/// Idefics3 (SmolVLM), `mtmd`'s `MTMD_SLICE_TMPL_IDEFICS3` with the overview last: for each slice, row by row,
/// `<fake_token_around_image><row_R_col_C>` then its embeddings, a `\n` token after every row of slices but the
/// last; then `\n\n`, `<fake_token_around_image>`, `<global-img>`, the overview's embeddings,
/// `<fake_token_around_image>`. Gemma 3: `<start_of_image>`, the image's embeddings, `<end_of_image>` (the two
/// tokenized as text with special tokens, `mtmd`'s `img_beg`/`img_end`); its image rows attend to each other in
/// full (``bidirectional``, `mtmd_decode_use_non_causal`).
final class LocalVision: Sendable {
    /// The text that stands for an image in rendered message text (`mtmd_default_marker()`).
    static let marker = "<__media__>"
    /// Images whose bytes are kept for encoding, and images whose embeddings are kept (most recent first out).
    static let registeredLimit = 64, embeddingsLimit = 8
    /// The most pixel bytes kept between measuring an image and encoding it (32 MiB: about 11 megapixels).
    static let keptPixelBytes = 32 << 20

    let encoder: VisionEncoder
    let preprocessor: ImagePreprocessor
    let tokenizer: Tokenizer
    private let rowEnd: [Int], overviewStart: [Int], overviewEnd: [Int]
    /// Whether an image's rows attend to each other in full (Gemma 3), so they are prefilled in one pass.
    var bidirectional: Bool { encoder.hyperparameters.projector == .gemma3 }
    private let state = Mutex(State())
    /// Held while an image is decoded or encoded: one at a time per model, so that memory does not grow with the
    /// sessions sending images at once (a 64-megapixel image takes some 400 MB to decode and resize, about 850 MB as a 16-bit RGBA PNG), and the ViT
    /// has the threads to itself.
    private let imageWork = Mutex(())
    /// Images being decoded or encoded now, and the most there ever were at once: counted apart from the lock, so
    /// that a test sees overlap if the lock stops serialising the work.
    private let running = Atomic(0), peak = Atomic(0)

    /// The most images decoded or encoded at once on this model so far: 1 when any was. For tests.
    var peakConcurrentImageWork: Int { peak.load(ordering: .relaxed) }

    private let decodes = Atomic(0)
    /// Images decoded on this model so far. For tests.
    var imageDecodeCount: Int { decodes.load(ordering: .relaxed) }

    /// Runs `body` while holding ``imageWork``.
    private func oneImageAtATime<T>(_ body: () throws(LanguageModelError) -> T) throws(LanguageModelError) -> T {
        try imageWork.withLock { _ throws(LanguageModelError) -> T in
            let now = running.add(1, ordering: .relaxed).newValue
            peak.max(now, ordering: .relaxed)
            defer { running.subtract(1, ordering: .relaxed) }
            return try body()
        }
    }

    fileprivate struct State {
        /// Key -> the image's bytes and layout, in the order they were last used.
        var registered: [(key: UInt64, image: PromptImage)] = []
        var embeddings: [(key: UInt64, rows: [Float])] = []
        /// The pixels of the image measured last, until it is encoded: decoding is the larger part of measuring.
        /// Only up to ``LocalVision/keptPixelBytes``, as a measured image may never be encoded (`tokenCount(for:)`).
        var lastDecoded: (key: UInt64, image: DecodedImage)?
    }

    /// An image of a prompt, measured.
    struct PromptImage: Sendable {
        let data: Data
        let orientation: ImageOrientation
        let layout: TileLayout
    }

    /// `data`'s pixels as shown, turned by `orientation`.
    private func decode(_ data: Data, _ orientation: ImageOrientation) throws(ImageDecodingError) -> DecodedImage {
        decodes.add(1, ordering: .relaxed)
        return try DecodedImage(data: data, turnedBy: orientation)
    }

    /// Loads the `mmproj` file at `path` for a text model of `nEmbd` embeddings and vocabulary `tokenizer`.
    /// - Throws: ``LocalModelError/loadFailed(path:reason:)`` when the file is not a supported `mmproj`, its
    ///   projector's embeddings are not `nEmbd` wide, a Gemma 3 image takes more rows than one forward pass, or
    ///   the vocabulary lacks the projector's image tokens (Idefics3's, or Gemma 3's `<start_of_image>` and
    ///   `<end_of_image>`).
    init(path: String, tokenizer: Tokenizer, nEmbd: Int, threads: Int) throws(LocalModelError) {
        let encoder: VisionEncoder
        do { encoder = try VisionEncoder(path: path, threads: threads) } catch { throw .loadFailed(path: path, reason: error.description) }
        guard encoder.nEmbdText == nEmbd else {
            throw .loadFailed(path: path, reason: "the projector makes \(encoder.nEmbdText)-wide embeddings; the text model's are \(nEmbd)")
        }
        func lookup(_ text: String) throws(LocalModelError) -> Int {
            guard let id = Self.lookupToken(text, tokenizer) else {
                throw .loadFailed(path: path, reason: "the text model's vocabulary has no \(text.debugDescription) token, which \(encoder.hyperparameters.projector.rawValue) images need")
            }
            return id
        }
        switch encoder.hyperparameters.projector {
        case .gemma3:
            let rows = encoder.hyperparameters.tokensPerImage
            guard rows <= ForwardEngine.maxBatch else {
                throw .loadFailed(path: path, reason: "a Gemma 3 image takes \(rows) rows, more than one forward pass (\(ForwardEngine.maxBatch)) can attend over in full")
            }
            rowEnd = []
            // mtmd tokenizes them as text with special tokens, which is one token each in a Gemma 3 vocabulary; a
            // vocabulary without them is another model's, so the pair is refused rather than fed their bytes.
            overviewStart = [try lookup("<start_of_image>")]
            overviewEnd = [try lookup("<end_of_image>")]
        case .idefics3:
            rowEnd = [try lookup("\n")]
            overviewStart = [try lookup("\n\n"), try lookup("<fake_token_around_image>"), try lookup("<global-img>")]
            overviewEnd = [try lookup("<fake_token_around_image>")]
        }
        self.encoder = encoder
        self.preprocessor = ImagePreprocessor(encoder.hyperparameters)
        self.tokenizer = tokenizer
    }

    /// The first token whose text (control tokens included) is `text`: `mtmd`'s `lookup_token`.
    static func lookupToken(_ text: String, _ tokenizer: Tokenizer) -> Int? {
        let bytes = Array(text.utf8)
        return (0..<tokenizer.vocabularySize).first { tokenizer.tokenBytes($0, includeSpecial: true) == bytes }
    }

    // MARK: Prompt tokens

    /// The tokens `image` takes in a prompt: its framing tokens and its rows' placeholders. Registers the image
    /// for ``embeddings(key:)``.
    /// - Throws: ``LanguageModelError/unsupportedTranscriptContent(_:)`` when the image cannot be read, decoded
    ///   or laid out.
    func tokens(for image: Transcript.ImageAttachment) throws(LanguageModelError) -> [Int] {
        let (key, measured) = try measure(image)
        let layout = measured.layout, perTile = layout.tokensPerTile
        func rows(_ tile: Int) -> [Int] { (0..<perTile).map { Self.placeholder(key: key, row: tile * perTile + $0) } }
        var out: [Int] = []
        for y in 0..<layout.rows {
            for x in 0..<layout.columns {
                out += tokenizer.encode("<fake_token_around_image><row_\(y + 1)_col_\(x + 1)>", addBOS: false, parseSpecial: true)
                out += rows(y * layout.columns + x)
            }
            if y != layout.rows - 1 { out += rowEnd }
        }
        return out + overviewStart + rows(layout.columns * layout.rows) + overviewEnd
    }

    /// The image's key and layout, from the cache or by decoding it.
    private func measure(_ image: Transcript.ImageAttachment) throws(LanguageModelError) -> (UInt64, PromptImage) {
        let data: Data
        do { data = try image.bytes() } catch { throw Self.unreadable(error.description) }
        let key = Self.key(data, image.orientation)
        if let known = state.withLock({ $0.touch(key) }) { return (key, known) }
        let layout: TileLayout = try oneImageAtATime { () throws(LanguageModelError) -> TileLayout in
            let decoded: DecodedImage
            do {
                decoded = try decode(data, image.orientation)
            } catch {
                throw Self.unreadable("the image does not decode: \(error)")
            }
            let layout: TileLayout
            do { layout = try preprocessor.layout(width: decoded.width, height: decoded.height) } catch { throw Self.unreadable("\(error)") }
            if decoded.pixels.count <= Self.keptPixelBytes { state.withLock { $0.lastDecoded = (key, decoded) } }
            return layout
        }
        guard layout.tokenCount <= Self.maxRows else {
            throw Self.unreadable("the image takes \(layout.tokenCount) tokens, more than \(Self.maxRows)")
        }
        let measured = PromptImage(data: data, orientation: image.orientation, layout: layout)
        state.withLock { $0.register(key, measured) }
        return (key, measured)
    }

    private static func unreadable(_ reason: String) -> LanguageModelError {
        .unsupportedTranscriptContent(.init(unsupportedContent: [], debugDescription: "An image attachment cannot be used: \(reason)."))
    }

    // MARK: Embeddings

    /// The embeddings of the registered image `key`, `[layout.tokenCount, nEmbd]` (encoded now unless kept); nil
    /// when `isCancelled` said so while encoding (checked before each tile and transformer block).
    /// - Throws: ``LanguageModelError/unsupportedTranscriptContent(_:)`` when the image is no longer registered or
    ///   does not encode.
    func embeddings(key: UInt64, isCancelled: () -> Bool = { false }) throws(LanguageModelError) -> [Float]? {
        func kept() -> [Float]? { state.withLock { s in s.embeddings.first { $0.key == key }?.rows } }
        if let rows = kept() { return rows }
        return try oneImageAtATime { () throws(LanguageModelError) -> [Float]? in
            // Another session may have encoded it while this one waited.
            if let rows = kept() { return rows }
            guard let image = state.withLock({ $0.touch(key) }) else { throw Self.unreadable("the image is no longer registered") }
            let encoded: [Float]?
            do {
                let pixels = try state.withLock { $0.takeDecoded(key) } ?? decode(image.data, image.orientation)
                encoded = try encoder.embeddings(for: pixels, isCancelled: isCancelled)
            } catch {
                throw Self.unreadable("\(error)")
            }
            guard let rows = encoded else { return nil }
            state.withLock { s in
                s.embeddings.removeAll { $0.key == key }
                s.embeddings.append((key, rows))
                if s.embeddings.count > Self.embeddingsLimit { s.embeddings.removeFirst() }
            }
            return rows
        }
    }

    // MARK: Placeholder ids

    /// Rows an image may take (the row field of a placeholder id).
    static let maxRows = 1 << 15

    /// The placeholder id of row `row` of image `key`: negative, never a vocabulary id.
    static func placeholder(key: UInt64, row: Int) -> Int {
        -1 - Int(truncatingIfNeeded: (key & 0xFFFF_FFFF_FFFF) << 15 | UInt64(row))
    }

    /// Whether `next` is the row after `id` of the same image (both placeholder ids).
    static func continuesImage(_ id: Int, _ next: Int) -> Bool {
        guard id < 0, next < 0 else { return false }
        let (a, b) = (split(id), split(next))
        return a.key == b.key && b.row == a.row + 1
    }

    /// `position` moved back to the first row of the run of image rows it falls inside (after its first row);
    /// otherwise unchanged.
    static func imageStart(_ tokens: [Int], at position: Int) -> Int {
        var p = position
        while p > 0, p < tokens.count, continuesImage(tokens[p - 1], tokens[p]) { p -= 1 }
        return p
    }

    /// The image key and row of a placeholder id (a negative id).
    static func split(_ id: Int) -> (key: UInt64, row: Int) {
        let v = UInt64(-1 - id)
        return (v >> 15, Int(v & 0x7FFF))
    }

    /// A 48-bit key of the encoded image and its orientation (FNV-1a).
    static func key(_ data: Data, _ orientation: ImageOrientation) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        h = (h ^ UInt64(orientation.rawValue)) &* 0x100_0000_01B3
        return h & 0xFFFF_FFFF_FFFF
    }
}

extension LocalVision.State {
    /// The image `key`, moved to the most recent end; nil when not registered.
    mutating func touch(_ key: UInt64) -> LocalVision.PromptImage? {
        guard let i = registered.firstIndex(where: { $0.key == key }) else { return nil }
        let entry = registered.remove(at: i)
        registered.append(entry)
        return entry.image
    }

    /// The pixels of image `key` if it was the last measured, handed over once.
    mutating func takeDecoded(_ key: UInt64) -> DecodedImage? {
        guard let last = lastDecoded, last.key == key else { return nil }
        lastDecoded = nil
        return last.image
    }

    mutating func register(_ key: UInt64, _ image: LocalVision.PromptImage) {
        registered.removeAll { $0.key == key }
        registered.append((key, image))
        if registered.count > LocalVision.registeredLimit { registered.removeFirst() }
    }
}
