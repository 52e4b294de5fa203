import Foundation

/// The productIds of a likes listing's rows, in order, as one comma-separated string: 100,000 of
/// them are read and checked as one JSON value, not as 100,000.
public struct LikedRows: Codable, Equatable, Sendable {
    public private(set) var joined: String

    /// Nil when an id is not usable (1 to 32 ASCII digits): a like's id always is.
    public init?(_ ids: [String]) {
        guard ids.allSatisfy({ ProductID.usable($0) == $0 }) else { return nil }
        joined = ids.joined(separator: ",")
    }

    /// Nil unless `joined` is comma-separated usable ids (what a stored listing must hold).
    public init?(joined: String) {
        var ok = true
        var length = 0
        for byte in joined.utf8 {
            if byte == UInt8(ascii: ",") {
                ok = ok && length > 0
                length = 0
            } else {
                ok = ok && byte >= 0x30 && byte <= 0x39
                length += 1
                ok = ok && length <= ProductID.maxLength
            }
            if !ok { return nil }
        }
        guard joined.isEmpty || length > 0 else { return nil }
        self.joined = joined
    }

    public var count: Int { joined.isEmpty ? 0 : joined.utf8.reduce(1) { $1 == UInt8(ascii: ",") ? $0 + 1 : $0 } }

    /// The id of row `number` (1 is the first).
    public func id(atRow number: Int) -> String? {
        guard number >= 1, !joined.isEmpty else { return nil }
        var row = 1
        var start = joined.utf8.startIndex
        var i = start
        let utf8 = joined.utf8
        while i < utf8.endIndex {
            if utf8[i] == UInt8(ascii: ",") {
                if row == number { return String(joined[start..<i]) }
                row += 1
                start = utf8.index(after: i)
            }
            i = utf8.index(after: i)
        }
        return row == number ? String(joined[start...]) : nil
    }

    /// The row that shows `id`, if any.
    public func row(of id: String) -> Int? {
        guard !joined.isEmpty else { return nil }
        for (index, part) in joined.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).enumerated()
        where part.elementsEqual(id.utf8) {
            return index + 1
        }
        return nil
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let rows = LikedRows(joined: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not comma-separated productIds"))
        }
        self = rows
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(joined)
    }
}
