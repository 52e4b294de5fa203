import ShopYCore
import ShopYBase
/// The fast way through an import file: the likes are checked as bytes (the checks of the store's
/// own load) instead of being built as JSON values first; 100,000 likes take a fraction of a
/// second. Anything it does not accept goes the strict way (`LikesFile.parse`), which says
/// precisely what is wrong.
extension LikesFile {
    /// Each like's likedAt as a number (`2026-11-29T20:33:43Z` → 20261129203343, found when it
    /// was checked), when every one has exactly that form; else nil (then they are compared as
    /// text, which orders the same).
    static func timestampKeys(_ likes: [LikeCollection.RawLike]) -> [Int]? {
        var keys: [Int] = []
        keys.reserveCapacity(likes.count)
        for like in likes {
            guard let key = like.likedAtKey else { return nil }
            keys.append(key)
        }
        return keys
    }

    static func checkedElements(_ bytes: [UInt8]) -> [LikeCollection.Element]? {
        guard bytes.withUnsafeBufferPointer(JSONParser.isValidUTF8) else { return nil }
        var likes: Range<Int>?
        var schema: Int? = 1
        let parsed: Bool = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            parser.validatesUTF8 = false
            do throws(JSONParseError) {
                parser.skipWhitespace()
                if parser.peekByte() == UInt8(ascii: "[") {
                    likes = try parser.skipValue()
                } else if parser.peekByte() == UInt8(ascii: "{") {
                    try parser.forEachMember { key, _, parser throws(JSONParseError) in
                        let range = try parser.skipValue()
                        if key == "likes" { likes = range }
                        if key == "schema" { schema = Int(String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)) }
                    }
                } else {
                    return false
                }
                try parser.expectEnd()
                return true
            } catch {
                return false
            }
        }
        guard parsed, let likes, let schema, (1...Self.schema).contains(schema), bytes[likes.lowerBound] == UInt8(ascii: "[") else { return nil }
        return try? LikeCollection.elements(fromStored: bytes[likes])
    }
}

extension LikesFile {
    /// Every like's likedAt is empty (the import's time is given) or a time as shopy writes it;
    /// else the import is refused, naming the first like that is not (as any malformed like).
    static func checkLikedAt(_ checked: [LikeCollection.Element]?, _ incoming: [Like], path: String) throws(StoreError) {
        func check(_ time: String, _ i: Int) throws(StoreError) {
            if let problem = Like.likedAtProblem(time) { throw .invalidImport(path: path, problem: "like \(i + 1) \(problem)") }
        }
        for (i, like) in incoming.enumerated() { try check(like.likedAt, i) }
        for (i, element) in (checked ?? []).enumerated() {
            let raw = element.checked.likedAt
            // As written, unless it holds an escape (then as decoded).
            let time = raw.contains(UInt8(ascii: "\\")) ? ((try? LikeCollection.decode(element.bytes))?.likedAt ?? "") : String(decoding: raw, as: UTF8.self)
            try check(time, i)
        }
    }
}

extension LikeCollection {
    /// Adds a checked like as it is when it has the stored shape (canonical keys, one line, a
    /// likedAt) and its fields are surely within an answer's bounds; otherwise decoded, given
    /// `now` as its likedAt when it has none, bounded (`Like.bounded`) and re-encoded.
    @discardableResult
    mutating func addImported(_ element: Element, now: String) throws(StoredValueError) -> Bool {
        if element.checked.canonical && element.checked.withinFieldLimits && !element.checked.likedAt.isEmpty && !element.bytes.contains(0x0A) {
            return add(element: element)
        }
        var like = try LikeCollection.decode(element.bytes)
        if like.likedAt.isEmpty { like.likedAt = now }
        return add(like.bounded())
    }
}
