import Foundation
import LMImage
import LMSession

/// `lmsession generate --mmproj MMPROJ.gguf --image FILE [--image FILE...] PROMPT`: one answer about images, through
/// `LanguageModelSession` on the model with its `mmproj` file (Idefics3/SmolVLM, Gemma 3). The images go right before
/// the prompt's text in the user message, in order (`Prompt { Attachment(imageData:)...; PROMPT }`), where llama.cpp's
/// `llama-mtmd-cli -p PROMPT --image FILE...` puts its media markers. The answer on stdout, token counts and time on
/// stderr.
enum ImageGeneration {
    static let valueOptions: Set<String> = ["mmproj", "image", "model", "system", "max-tokens", "threads", "context",
                                            "temperature", "top-k", "top-p", "seed"]

    static func run(_ args: ArraySlice<String>) throws(CLIError) {
        let a = try CommandLineArguments(args, valueOptions: valueOptions, switches: ["greedy"], repeatable: ["image"])
        guard a.positional.count == 1 else { throw .usage("generate --image takes exactly one PROMPT argument") }
        guard let mmproj = a.string("mmproj") else { throw .usage("generate --image needs --mmproj MMPROJ.gguf, the model's image encoder") }
        let images = a.strings("image")
        guard !images.isEmpty, !images.contains(where: \.isEmpty) else { throw .usage("--image needs a file path") }
        let contextSize = try a.contextSize()
        let threads = try a.threads()
        let options = try SchemaGeneration.generationOptions(a)
        let modelPath = ModelLocator.path(a.string("model"))
        for (path, what) in [(modelPath, "model"), (mmproj, "mmproj file")] where !FileManager.default.fileExists(atPath: path) {
            throw .failed("\(what) not found at \(path)")
        }
        // Read before the model loads, so an unreadable image is named at once (the bytes go in as data).
        var read: [Data] = []
        for path in images {
            do { read.append(try ImageFile.read(URL(fileURLWithPath: path))) } catch { throw .failed("cannot read \(path): \(error)") }
        }
        let imageData = read
        let (prompt, instructions) = (a.positional[0], a.string("system"))
        let start = ContinuousClock.now
        let outcome = blocking { () async throws -> (text: String, usage: LanguageModelSession.Usage) in
            let model = try SystemLanguageModel(fileURL: URL(fileURLWithPath: modelPath), mmprojURL: URL(fileURLWithPath: mmproj),
                                                contextSize: contextSize, threads: threads)
            noteContextCap(requested: contextSize, used: model.contextSize)
            let session = LanguageModelSession(model: model, instructions: instructions)
            let response = try await session.respond(options: options) {
                for data in imageData { Attachment(imageData: data) }
                prompt
            }
            return (response.content, response.usage)
        }
        switch outcome {
        case .success(let (text, usage)):
            writeOut(text + "\n")
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            printError(String(format: "%d prompt tokens (image included), %d generated tokens, %.2f s (model load included)",
                              usage.input.totalTokenCount, usage.output.totalTokenCount, seconds))
        case .failure(let error as any LocalizedError):
            throw .failed(error.errorDescription ?? "\(error)")
        case .failure(let error):
            throw .failed("\(error)")
        }
    }
}
