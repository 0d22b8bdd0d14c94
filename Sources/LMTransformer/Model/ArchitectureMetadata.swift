import LMGGUF

/// Reads one architecture's `{arch}.*` metadata keys and remembers which were consulted, so that
/// a key no reader looked at is reported as unsupported instead of silently ignored.
struct ArchitectureMetadata {
    let file: GGUFFile
    let prefix: String
    private(set) var consulted: Set<String> = []
    /// Values the runtime does not implement, gathered so all of them are reported at once.
    private(set) var unsupported: [Unsupported] = []

    init(file: GGUFFile, architecture: String) {
        self.file = file
        self.prefix = architecture + "."
    }

    func fullName(_ key: String) -> String { prefix + key }

    private mutating func value(_ key: String) -> GGUFValue? {
        consulted.insert(fullName(key))
        return file[fullName(key)]
    }

    /// An integer key; an array of equal integers (llama.cpp's per-layer form) counts as one value.
    /// - Throws: ``ModelLoadError/missingKey(_:)`` when it has another type, or when absent and
    ///   `fallback` is nil.
    mutating func int(_ key: String, _ fallback: Int? = nil) throws(ModelLoadError) -> Int {
        if let v = try optionalInt(key) { return v }
        if let fallback { return fallback }
        throw .missingKey(fullName(key))
    }

    mutating func optionalInt(_ key: String) throws(ModelLoadError) -> Int? {
        guard let v = value(key) else { return nil }
        if let i = v.int { return i }
        if let values = v.array?.ints, let first = values.first {
            if values.allSatisfy({ $0 == first }) { return first }
            report(.value(key: fullName(key), value: "\(values.prefix(8))…", reason: "per-layer values that differ"))
            return first
        }
        throw .missingKey(fullName(key))
    }

    mutating func float(_ key: String) throws(ModelLoadError) -> Float {
        guard let v = try optionalFloat(key) else { throw .missingKey(fullName(key)) }
        return v
    }

    mutating func optionalFloat(_ key: String) throws(ModelLoadError) -> Float? {
        guard let v = value(key) else { return nil }
        guard let d = v.double else { throw .missingKey(fullName(key)) }
        return Float(d)
    }

    mutating func optionalBool(_ key: String) throws(ModelLoadError) -> Bool? {
        guard let v = value(key) else { return nil }
        guard let b = v.bool else { throw .missingKey(fullName(key)) }
        return b
    }

    mutating func optionalString(_ key: String) throws(ModelLoadError) -> String? {
        guard let v = value(key) else { return nil }
        guard let s = v.string else { throw .missingKey(fullName(key)) }
        return s
    }

    /// A key that is either one integer or one value per layer (`[Bool]` or `[Int]`).
    mutating func intOrFlags(_ key: String) throws(ModelLoadError) -> (Int?, [Bool]?) {
        guard let v = value(key) else { return (nil, nil) }
        if let i = v.int { return (i, nil) }
        if let flags = v.array?.ints { return (nil, flags.map { $0 != 0 }) }
        throw .missingKey(fullName(key))
    }

    /// A key the runtime accepts only with the value that changes nothing (e.g. `expert_count` 0).
    /// Keys another reader already consulted are left to it.
    mutating func requireNeutral(_ key: String, _ isNeutral: (GGUFValue) -> Bool, _ reason: String) {
        guard !consulted.contains(fullName(key)), let v = value(key), !isNeutral(v) else { return }
        report(.value(key: fullName(key), value: Self.describe(v), reason: reason))
    }

    mutating func report(_ problem: Unsupported) { unsupported.append(problem) }

    /// Every `{arch}.*` key of the file that nothing consulted, in file order.
    var unconsultedKeys: [String] {
        file.keys.filter { $0.hasPrefix(prefix) && !consulted.contains($0) }
    }

    static func describe(_ v: GGUFValue) -> String {
        switch v {
        case let .string(s): "\"\(s)\""
        case let .bool(b): "\(b)"
        case let .array(a): "array of \(a.count)"
        default: v.double.map { "\($0)" } ?? "\(v)"
        }
    }
}

/// Something in a GGUF that LMSession does not implement. Loading refuses such a file rather than
/// running it differently from what it says.
public enum Unsupported: Sendable, Equatable, CustomStringConvertible {
    /// A metadata key of the architecture that no part of the runtime reads.
    case key(String)
    /// A key whose value asks for something not implemented.
    case value(key: String, value: String, reason: String)
    /// A tensor no layer reads (experts, adapters, vision towers...).
    case tensor(String)

    public var description: String {
        switch self {
        case let .key(k): "metadata key \"\(k)\" is not implemented"
        case let .value(k, v, reason): "\"\(k)\" = \(v): \(reason)"
        case let .tensor(t): "tensor \"\(t)\" is not used by this architecture"
        }
    }
}
