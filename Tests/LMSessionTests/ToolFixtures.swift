import Foundation
import LMSession
import Synchronization

// The tools of scenarios 9 and 10 (scenarios.md), with `GenerableSchema` declarations in place of the macros.

/// Scenario 10: today's weather in a city, as a structured value. Records the cities it was asked about.
struct GetWeather: Tool {
    let name = "get_weather"
    let description = "Gets today's weather in a city."
    let cities = Log<String>()

    struct Arguments: GenerableSchema {
        var city: String
        static let generationGuides = GenerationGuides<Arguments>(.init(\.city, description: "The city's name"))
    }

    struct Weather: GenerableSchema, Equatable {
        var temperatureC: Double
        var condition: String
    }

    func call(arguments: Arguments) async throws -> Weather {
        cities.append(arguments.city)
        return Weather(temperatureC: -3, condition: "snow")
    }
}

/// Scenario 9: the first `count` (1...10) of the user's contacts. Records the counts it was asked for.
struct FindContacts: Tool {
    let description = "Finds the user's contacts."
    let counts = Log<Int>()
    static let names = ["Ada", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]

    struct Arguments: GenerableSchema {
        var count: Int
        static let generationGuides = GenerationGuides<Arguments>(.init(\.count, description: "How many contacts", .range(1...10)))
    }

    func call(arguments: Arguments) async throws -> [String] {
        counts.append(arguments.count)
        return Array(Self.names.prefix(max(0, min(arguments.count, Self.names.count))))
    }
}

extension Transcript.Entry {
    /// A short label of the entry's kind, for comparing transcript shapes.
    var kindLabel: String {
        switch self {
        case .instructions: "instructions"
        case .prompt: "prompt"
        case .toolCalls: "toolCalls"
        case .toolOutput: "toolOutput"
        case .response: "response"
        case .reasoning: "reasoning"
        }
    }
}

/// Values recorded from concurrent tool calls, in arrival order.
final class Log<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
    var values: [Value] { storage.withLock { $0 } }
}

/// A counter shared by concurrent tool calls.
final class Counter: Sendable {
    private let storage = Atomic(0)
    func increment() { storage.add(1, ordering: .relaxed) }
    var value: Int { storage.load(ordering: .relaxed) }
}
