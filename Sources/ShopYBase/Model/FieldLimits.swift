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

    /// The first `limit` Characters of `text` (the text itself when it fits).
    public static func cut(_ text: String, to limit: Int) -> String {
        if text.utf8.count <= limit { return text }  // fewer bytes than the limit: fewer Characters too
        var end = text.startIndex
        var count = 0
        while end < text.endIndex && count < limit {
            end = text.index(after: end)
            count += 1
        }
        return end == text.endIndex ? text : String(text[..<end])
    }

    /// Raw wire text cut before cleaning, so that cleaning a huge field costs no more than a
    /// bounded one: entities and `<b>` tags shrink in cleaning, hence the margin.
    static func cutRaw(_ text: String, to limit: Int) -> String {
        cut(text, to: limit * 8)
    }
}
