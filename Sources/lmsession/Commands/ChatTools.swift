import Dispatch
import Foundation
import LMSession
import Synchronization

/// `lmsession chat [--tools demo]`: a chat through `LanguageModelSession` (the session keeps the
/// conversation and re-uses its KV cache across turns), optionally with a set of tools. Each tool call is
/// shown on standard error as it runs (name, arguments, output); the answer streams to standard output.
///
/// Options: `--model PATH`, `--system TEXT` (instructions), `--max-tokens N`, `--greedy`,
/// `--tool-calling allowed|required|disallowed` (default allowed).
enum ChatTools {
    static let defaultInstructions = "You are a helpful assistant. Call get_weather for questions about the weather "
        + "and FindContacts when the user mentions their contacts."

    static func run(_ a: CommandLineArguments, toolSet: String?) throws(CLIError) {
        guard toolSet == nil || toolSet == "demo" else { throw .usage("unknown tool set \"\(toolSet ?? "")\" (known: demo)") }
        let tools: [any Tool] = toolSet == nil ? [] : [DemoWeather(), DemoContacts()]
        let mode: GenerationOptions.ToolCallingMode? = switch a.string("tool-calling") {
        case nil, "allowed": .allowed
        case "required": .required
        case "disallowed": .disallowed
        case let other?: throw .usage("--tool-calling must be allowed, required or disallowed, not \"\(other)\"")
        }
        guard toolSet != nil || a.string("tool-calling") == nil else { throw .usage("--tool-calling needs --tools demo") }
        let maxTokens = try a.maxTokens(default: 256)
        let path = ModelLocator.path(a.string("model"))
        let model: SystemLanguageModel
        do { model = try SystemLanguageModel(fileURL: URL(fileURLWithPath: path)) } catch { throw .failed("\(error)") }  // LocalModelError names the path
        let options = GenerationOptions(samplingMode: a.switches.contains("greedy") ? .greedy : nil,
                                        maximumResponseTokens: maxTokens, toolCallingMode: mode)
        let session = LanguageModelSession(model: model, tools: tools,
                                           instructions: a.string("system") ?? (tools.isEmpty ? nil : defaultInstructions))
        printError(tools.isEmpty ? "Chatting with \(path). Empty line or Ctrl-D to quit."
                   : "Chatting with tools get_weather and FindContacts. Empty line or Ctrl-D to quit.")
        var turns = 0, failed = 0
        while true {
            writeOut("> ")
            guard let line = try readStandardInputLine(), !line.isEmpty else { break }
            turns += 1
            do {
                try runBlocking {
                    var shown = ""
                    for try await snapshot in session.streamResponse(to: line, options: options) {
                        // Snapshots are cumulative; text before a tool call is replaced by the answer after it.
                        if snapshot.content.hasPrefix(shown) {
                            writeOut(String(snapshot.content.dropFirst(shown.count)))
                        } else {
                            writeOut("\n" + snapshot.content)
                        }
                        shown = snapshot.content
                    }
                    writeOut("\n")
                }
            } catch {
                printError("error: \(error)")
                failed += 1
            }
        }
        // A script piping turns in learns from the exit status that some failed (each error was shown).
        if failed > 0 { throw .failed("\(failed) of \(turns) turn\(turns == 1 ? "" : "s") failed") }
    }

    /// Runs `body` to completion on the concurrency pool and waits for it (the command line is synchronous).
    private static func runBlocking(_ body: @escaping @Sendable () async throws -> Void) throws {
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        Task {
            do { try await body() } catch { failure.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Prints one tool call and its output to standard error.
    static func show(_ name: String, _ arguments: some ConvertibleToGeneratedContent, _ output: some ConvertibleToGeneratedContent) {
        printError("[tool] \(name)(\(arguments.generatedContent.jsonString)) -> \(output.generatedContent.jsonString)")
    }
}

/// Today's weather in a city, made up from the city's name so the same city always gets the same weather.
struct DemoWeather: Tool {
    let name = "get_weather"
    let description = "Gets today's weather in a city."

    struct Arguments: GenerableSchema {
        var city: String
        static let generationGuides = GenerationGuides<Arguments>(.init(\.city, description: "The city's name"))
    }

    struct Weather: GenerableSchema {
        var temperatureC: Double
        var condition: String
    }

    func call(arguments: Arguments) async throws -> Weather {
        let seed = arguments.city.lowercased().unicodeScalars.reduce(0) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
        let conditions = ["sunny", "cloudy", "rain", "snow", "windy"]
        let weather = Weather(temperatureC: Double(seed % 40 - 10), condition: conditions[seed % conditions.count])
        ChatTools.show(name, arguments, weather)
        return weather
    }
}

/// The first `count` of a fixed list of contacts.
struct DemoContacts: Tool {
    let name = "FindContacts"
    let description = "Finds the user's contacts."
    static let contacts = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov",
                           "Donald Knuth", "Frances Allen", "John McCarthy", "Margaret Hamilton", "Ken Thompson"]

    struct Arguments: GenerableSchema {
        var count: Int
        static let generationGuides = GenerationGuides<Arguments>(.init(\.count, description: "How many contacts", .range(1...10)))
    }

    func call(arguments: Arguments) async throws -> [String] {
        let names = Array(Self.contacts.prefix(max(0, min(arguments.count, Self.contacts.count))))
        ChatTools.show(name, arguments, names)
        return names
    }
}
