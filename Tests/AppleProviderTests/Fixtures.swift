// Types an app would declare with `@Generable`, written as the macro expands them (no macros here).
import Foundation
import LMSession
import Synchronization

struct Itinerary: Generable, Equatable {
    var city: String
    var days: Int

    static var generationSchema: GenerationSchema {
        GenerationSchema(type: Self.self, properties: [.init(name: "city", type: String.self), .init(name: "days", type: Int.self)])
    }
    init(city: String, days: Int) {
        self.city = city
        self.days = days
    }
    init(_ content: GeneratedContent) throws {
        city = try content.value(forProperty: "city")
        days = try content.value(forProperty: "days")
    }
    var generatedContent: GeneratedContent { GeneratedContent(properties: ["city": city, "days": days]) }
}

/// A tool that looks up the temperature of a city and records the cities it was asked for.
struct TemperatureTool: Tool {
    let name = "temperature"
    let description = "Today's temperature in a city, in degrees Celsius."
    let asked = Recorder()

    struct Arguments: Generable {
        var city: String
        static var generationSchema: GenerationSchema {
            GenerationSchema(type: Self.self, properties: [.init(name: "city", type: String.self)])
        }
        init(_ content: GeneratedContent) throws { city = try content.value(forProperty: "city") }
        var generatedContent: GeneratedContent { GeneratedContent(properties: ["city": city]) }
    }

    func call(arguments: Arguments) async throws -> String {
        asked.append(arguments.city)
        return arguments.city == "Oslo" ? "-3" : "21"
    }
}

/// The values a tool was called with, in order.
final class Recorder: Sendable {
    private let values = Mutex<[String]>([])
    func append(_ value: String) { values.withLock { $0.append(value) } }
    var all: [String] { values.withLock { $0 } }
}

/// A fresh model id per test, so tests running at once never share a script.
func uniqueModelID(_ name: String = #function) -> String { "\(name)-\(UUID().uuidString)" }
