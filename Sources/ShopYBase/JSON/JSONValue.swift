/// A JSON document as a tree. Numbers keep their text so that large integers (product ids) and
/// decimals survive unchanged; objects keep their key order so that what we write stays stable.
///
/// Foundation's JSON on Linux is slow on files the size of a large store, so shopy parses and
/// writes JSON with this small byte-level codec.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public static func int<I: BinaryInteger>(_ value: I) -> JSONValue { .number(String(value)) }

    /// `value` as a string, or null when absent.
    public static func string(orNull value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// `value` as a number, or null when absent.
    public static func int<I: BinaryInteger>(orNull value: I?) -> JSONValue { value.map { .number(String($0)) } ?? .null }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// An integer from a JSON number or from a string holding one (the wire sends both).
    public var intValue: Int? {
        switch self {
        case .number(let text): return Int(text)
        case .string(let text): return Int(text.trimmingASCIIWhitespace())
        default: return nil
        }
    }

    /// Text from a string, or the literal text of a number (lenient wire decoding).
    public var textValue: String? {
        switch self {
        case .string(let s): return s
        case .number(let n): return n
        default: return nil
        }
    }

    /// A short name of the value's kind for error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON object that remembers the order of its keys.
public struct JSONObject: Equatable, Sendable {
    public private(set) var keys: [String] = []
    public private(set) var values: [JSONValue] = []

    public init() {}

    public init(_ pairs: KeyValuePairs<String, JSONValue>) {
        for (key, value) in pairs { self[key] = value }
    }

    public var count: Int { keys.count }

    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = keys.firstIndex(of: key) else { return nil }
            return values[index]
        }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue { values[index] = newValue } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Appends without looking for an existing key: for the parser and for builders that know
    /// their keys are distinct.
    package mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
    }
}

extension String {
    package func trimmingASCIIWhitespace() -> String {
        var utf8 = Substring(self).utf8[...]
        while let first = utf8.first, first == 0x20 || first == 0x09 || first == 0x0A || first == 0x0D { utf8 = utf8.dropFirst() }
        while let last = utf8.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { utf8 = utf8.dropLast() }
        return String(Substring(utf8))
    }
}
