import ShopYCore
import ShopYBase
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
