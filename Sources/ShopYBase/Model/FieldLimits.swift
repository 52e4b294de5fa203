/// Bounds on what one item of an answer may bring into a listing or the store.
///
/// Real titles are under 100 Characters and shop names under 30; the bounds leave a wide margin
/// and keep one answer (100 items) to about a megabyte in the store at worst, whatever a server
/// sends. Text is cut at a Character boundary (never inside a cluster or a UTF-8 sequence); a URL
/// past its bound is dropped, since a cut URL points somewhere else.
public enum FieldLimits {
    /// Characters of a cleaned title.
    public static let title = 500
    /// Characters of a mall, brand, maker or category.
    public static let shopText = 200
    /// UTF-8 bytes of a link or image URL.
    public static let url = 2048
    /// Levels of categories: an answer has category1 to category4.
    public static let categories = 4

    /// UTF-8 bytes a cut text may hold per Character, on average: a Character (a grapheme
    /// cluster) can hold any number of combining scalars, so a count of Characters alone would
    /// let one cluster of megabytes through.
    static let bytesPerCharacter = 16

    /// The first `limit` Characters of `text` (the text itself when it fits), and no more than
    /// `limit * bytesPerCharacter` bytes of them.
    public static func cut(_ text: String, to limit: Int) -> String {
        if text.utf8.count <= limit { return text }  // fewer bytes than the limit: fewer Characters too
        let budget = limit * bytesPerCharacter
        var end = text.startIndex
        var count = 0
        while end < text.endIndex && count < limit {
            let next = text.index(after: end)
            guard text.utf8.distance(from: text.startIndex, to: next) <= budget else { break }
            end = next
            count += 1
        }
        return end == text.endIndex ? text : String(text[..<end])
    }

    /// Raw wire text cut before cleaning, so that cleaning a huge field costs no more than a
    /// bounded one: entities and `<b>` tags shrink in cleaning, hence the margin.
    static func cutRaw(_ text: String, to limit: Int) -> String {
        cut(text, to: rawCharacters(limit))
    }

    /// Characters of raw text read for a field cut to `limit` once cleaned (`cutRaw`).
    static func rawCharacters(_ limit: Int) -> Int { limit * 8 }

    /// Whether a URL is kept: at most `url` bytes once ASCII whitespace is trimmed from its
    /// ends (and at most twice that before).
    public static func keepsURL<Bytes: BidirectionalCollection>(_ utf8: Bytes) -> Bool where Bytes.Element == UInt8 {
        utf8.count <= url * 2 && trimmedCount(utf8) <= url
    }

    /// The longest text an `Int` is read from (`-9223372036854775808`).
    static let integerCharacters = String(Int.min).utf8.count

    /// UTF-8 bytes left once ASCII whitespace (space, tab, CR, LF) is trimmed from both ends.
    static func trimmedCount<Bytes: BidirectionalCollection>(_ utf8: Bytes) -> Int where Bytes.Element == UInt8 {
        func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        guard let first = utf8.firstIndex(where: { !space($0) }), let last = utf8.lastIndex(where: { !space($0) }) else { return 0 }
        return utf8.distance(from: first, to: last) + 1
    }
}

/// The same bounds for a store that keeps items raw, as the wire has them (the local catalog):
/// it keeps of each field what the mapper reads of it, so a product made from the stored item
/// is the product made from the item as sent, and no field can grow the store without bound.
extension FieldLimits {
    /// How the mapper reads one raw field (`ProductMapper`).
    public enum RawField: Sendable {
        /// Text cleaned and cut to this many Characters (a title, a shop text): read to
        /// `cutRaw`'s bound.
        case text(Int)
        /// A link or image: kept whole, or dropped when longer than `url` bytes (`keepsURL`).
        case url
        /// A price or product type, read as an `Int`: longer text than any `Int`'s is unknown.
        case integer
    }

    /// What a store keeps of a raw field.
    public enum RawBound: Equatable, Sendable {
        /// All of it.
        case keep
        /// This cut of it.
        case cut(String)
        /// Nothing: the field is left out, as the mapper would leave it out.
        case drop
    }

    /// The bound of a raw field's UTF-8 bytes. Of text past its bound only what the cut can keep
    /// is read (its byte budget and the scalar after it: a 30 MB field costs no more than a
    /// bounded one); the cut is `cutRaw`'s, to a Character boundary.
    public static func bound(_ bytes: UnsafeBufferPointer<UInt8>, as field: RawField) -> RawBound {
        switch field {
        case .text(let limit):
            let characters = rawCharacters(limit)
            guard bytes.count > characters else { return .keep }
            var end = min(bytes.count, characters * bytesPerCharacter + 4)
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }  // to the end of a scalar
            let kept = cut(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self), to: characters)
            return kept.utf8.count == bytes.count ? .keep : .cut(kept)
        case .url:
            return keepsURL(bytes) ? .keep : .drop
        case .integer:
            return trimmedCount(bytes) <= integerCharacters ? .keep : .drop
        }
    }

    /// `bound` of a String's bytes, as the String to keep (nil: dropped).
    public static func bound(_ text: String, as field: RawField) -> String? {
        var text = text
        switch text.withUTF8({ bound($0, as: field) }) {
        case .keep: return text
        case .cut(let kept): return kept
        case .drop: return nil
        }
    }
}
