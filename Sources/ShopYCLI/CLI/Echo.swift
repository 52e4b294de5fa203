import ShopYCore
/// A value from the command line or the environment as an error message quotes it: cleaned of
/// control characters and cut to `width` columns (with `…`), so that a hostile or huge value
/// (100,000 digits in SHOPY_SIZE, a 1 MB option name) still makes one readable line.
enum Echo {
    static let width = 64

    static func value(_ text: String) -> String {
        // Clean at most a little more than what is shown: the rest is cut anyway.
        let head = text.unicodeScalars.count > width * 4 ? String(String.UnicodeScalarView(text.unicodeScalars.prefix(width * 4))) + "…" : text
        return DisplayWidth.truncate(Sanitizer.clean(head), toWidth: width)
    }
}

extension Echo {
    /// The valid word nearest to what the user typed, for did-you-mean; none for a text far
    /// longer than any word (a 100,000-byte argument would cost seconds of edit distance).
    static func closest(to text: String, among candidates: [String]) -> String? {
        guard text.utf8.count <= 256 else { return nil }
        return Suggest.closest(to: text, among: candidates)
    }
}
