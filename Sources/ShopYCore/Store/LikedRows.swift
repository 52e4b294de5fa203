import Foundation
import ShopYBase

/// The productIds of a likes listing's rows, in order, as one comma-separated string: 100,000 of
/// them are read and checked as one JSON value, not as 100,000.
public struct LikedRows: Codable, Equatable, Sendable {
    public private(set) var joined: String

    /// Nil when an id is not usable (`ProductID`): a like's id always is.
    public init?(_ ids: [String]) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(ids.count * 12)
        for (i, id) in ids.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: id.utf8)
        }
        let joined = String(decoding: bytes, as: UTF8.self)
        guard LikedRows.isList(joined) else { return nil }
        self.joined = joined
        guard count == ids.count else { return nil }  // an id was empty or held a comma
    }

    /// Nil unless `joined` is comma-separated usable ids (what a stored listing must hold).
    public init?(joined: String) {
        guard LikedRows.isList(joined) else { return nil }
        self.joined = joined
    }

    /// Empty, or usable ids (`ProductID`: digits, bare or after `11st:` or `coupang:`) with a
    /// comma between each two.
    static func isList(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.isEmpty else { return true }
            var start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: ",") {
                guard ProductID.isUsable(UnsafeBufferPointer(rebasing: bytes[start..<i])) else { return false }
                start = i + 1
            }
            return true
        }
    }

    public var count: Int {
        var text = joined
        return text.withUTF8 { bytes in bytes.isEmpty ? 0 : bytes.reduce(1) { $1 == UInt8(ascii: ",") ? $0 + 1 : $0 } }
    }

    /// The id of row `number` (1 is the first).
    public func id(atRow number: Int) -> String? {
        var found: String?
        forEachID { row, id in
            guard row == number else { return true }
            found = String(decoding: id, as: UTF8.self)
            return false
        }
        return found
    }

    /// The row that shows `id`, if any.
    public func row(of id: String) -> Int? {
        let target = Array(id.utf8)
        var found: Int?
        forEachID { row, candidate in
            guard candidate.elementsEqual(target) else { return true }
            found = row
            return false
        }
        return found
    }

    /// Calls `body` with each row (from 1) and its id's bytes until it returns false; one pass,
    /// nothing made of the other ids (100,000 of them for an unlike).
    private func forEachID(_ body: (Int, UnsafeBufferPointer<UInt8>) -> Bool) {
        var text = joined
        text.withUTF8 { bytes in
            guard !bytes.isEmpty else { return }
            var row = 1, start = 0
            for i in 0...bytes.count where i == bytes.count || bytes[i] == UInt8(ascii: ",") {
                guard body(row, UnsafeBufferPointer(rebasing: bytes[start..<i])) else { return }
                row += 1
                start = i + 1
            }
        }
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
