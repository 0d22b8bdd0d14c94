/// The functions a template can call by name: `range` (capped like jinja2's sandbox at
/// `maxSequenceLength` items), `dict`, `namespace`, and Hugging Face's `raise_exception` and
/// `strftime_now`.
enum Globals {
    static func call(_ f: GlobalFunction, _ positional: [Value], _ keyword: [(String, Value)], _ r: Renderer) throws(JinjaError) -> Value {
        switch f {
        case .range:
            guard keyword.isEmpty else { throw .type("range() takes no keyword arguments") }
            var ints: [Int] = []
            for v in positional {
                if case let .undefined(u) = v { throw u.error }
                guard let i = v.integer else { throw .type("'\(v.typeName)' object cannot be interpreted as an integer") }
                ints.append(i)
            }
            let (start, stop, step): (Int, Int, Int)
            switch ints.count {
            case 1: (start, stop, step) = (0, ints[0], 1)
            case 2: (start, stop, step) = (ints[0], ints[1], 1)
            case 3: (start, stop, step) = (ints[0], ints[1], ints[2])
            case 0: throw .type("range expected at least 1 argument, got 0")
            default: throw .type("range expected at most 3 arguments, got \(ints.count)")
            }
            if step == 0 { throw .type("range() arg 3 must not be zero") }
            let span = step > 0 ? stop.subtractingReportingOverflow(start) : start.subtractingReportingOverflow(stop)
            let magnitude = step.magnitude
            let count = span.overflow ? Int.max : (span.partialValue <= 0 ? 0 : Int((UInt(span.partialValue) + magnitude - 1) / magnitude))
            if count > r.limits.maxSequenceLength { throw .limit(.sequenceLength) }
            return .list((0..<count).map { .int(start + $0 * step) })
        case .dict:
            var d = Dict()
            if positional.count > 1 { throw .type("dict expected at most 1 argument, got \(positional.count)") }
            if let source = positional.first { try fill(&d, from: source, r) }
            for (k, v) in keyword { d.set(k, v) }
            return .dict(d)
        case .namespace:
            var d = Dict()
            if positional.count > 1 { throw .type("dict expected at most 1 argument, got \(positional.count)") }
            if let source = positional.first { try fill(&d, from: source, r) }
            for (k, v) in keyword { d.set(k, v) }
            return .namespace(Namespace(d))
        case .raiseException:
            let b = try Binding("raise_exception", ["message"], positional, keyword)
            let message = try PythonRepr.str(try b.required("message", "raise_exception"), r)
            throw .raised(message: message.string, at: .unknown)
        case .strftimeNow:
            let b = try Binding("strftime_now", ["format"], positional, keyword)
            guard case let .string(format) = try b.required("format", "strftime_now") else {
                throw .type("strftime() argument 1 must be str")
            }
            return .string(try r.built(Text(Strftime.format(format.string, r.now), origin: format.dominantOrigin)))
        }
    }

    /// `dict(source)`: a mapping's pairs, or an iterable of two-item pairs.
    static func fill(_ d: inout Dict, from source: Value, _ r: Renderer) throws(JinjaError) {
        if case let .dict(other) = source {
            for (k, v) in other.pairs { try d.set(k, v) }
            return
        }
        for item in try Iteration.items(source, r) {
            let pair = try Iteration.unpack(item, count: 2, r)
            try d.set(pair[0], pair[1])
        }
    }
}
