import ShopYBase
/// Why a product's picture is not drawn. Never an error of the command: the card shows the
/// link as it always did, `--verbose` says this reason, and a missing library adds one hint line.
public enum PictureFailure: Error, Equatable, Sendable {
    /// A system library cannot be opened (`reason`: the loader's words).
    case missingLibrary(PictureLibrary, reason: String)
    /// The product has no image URL, or one shopy does not fetch (not http or https).
    case noImage(String)
    /// The request failed below HTTP (the transport's words).
    case transport(String)
    /// The server answered something other than 200.
    case status(Int)
    /// A redirect that is not followed: its reason.
    case redirect(String)
    /// The answer is not one of the picture types shopy draws, or is not what it says it is.
    case type(String)
    /// The answer passed the size cap.
    case tooLarge(bytes: Int)
    /// The picture's header declares more pixels than shopy decodes.
    case tooManyPixels(width: Int, height: Int)
    /// The bytes do not decode (`detail`: the decoder's words).
    case corrupt(format: PictureFormat, detail: String)
    /// libchafa could not draw the decoded picture (its words).
    case drawing(String)
    /// Pictures are turned off (`--images off`), or stdout is no terminal.
    case off(String)
    /// The picture is no longer wanted (browse left it): its fetch was aborted or its decode dropped.
    case cancelled

    /// One line for `--verbose` (no URL: the caller names it).
    public var reason: String {
        switch self {
        case .missingLibrary(let library, let reason): return "\(library.name) cannot be loaded (\(reason))"
        case .noImage(let why): return why
        case .transport(let words): return words
        case .status(let code): return "the server answered HTTP \(code)"
        case .redirect(let why): return why
        case .type(let why): return why
        case .tooLarge(let bytes): return "the picture is larger than \(bytes >> 20) MiB"
        case .tooManyPixels(let width, let height):
            // Megapixels to one decimal (sides are at most 2^32 - 1 in any header: no overflow).
            func megapixels(_ pixels: Int) -> String { "\((pixels + 50_000) / 1_000_000).\((pixels + 50_000) / 100_000 % 10)" }
            return "the picture is \(width)×\(height) pixels (\(megapixels(width * height)) megapixels); at most "
                + "\(megapixels(PictureLimits.maxPixels)) megapixels and \(PictureLimits.maxSide) a side are decoded"
        case .corrupt(let format, let detail): return "the \(format.name) does not decode: \(Sanitizer.clean(detail))"
        case .drawing(let words): return "libchafa could not draw it: \(Sanitizer.clean(words))"
        case .off(let why): return why
        case .cancelled: return "the picture is no longer shown"
        }
    }

    /// The one hint line a user can act on (a package to install), if any.
    public var hint: String? {
        if case .missingLibrary(let library, _) = self { return library.installHint }
        return nil
    }
}

/// The bounds every picture is held to, whatever its source.
public enum PictureLimits {
    /// The most bytes a picture's answer may have.
    public static let maxBytes = 8 << 20
    /// The widest and tallest picture decoded (checked from its header first).
    public static let maxSide = 8192
    /// The most pixels decoded, width × height as the header says, checked before any decoder
    /// runs: 4096 × 4096. A picture is drawn in at most a window's cells, a few hundred thousand
    /// pixels even as kitty, iTerm2 or sixel pixels (a whole 4K screen is 8.3 megapixels), and a
    /// product photo is seldom over 2000 × 2000, while a phone's 12-megapixel photo still fits.
    /// One decode then holds at most 64 MiB of RGBA (decoded into its one buffer), and its CPU
    /// time is bounded with it: PNG, WebP and GIF cannot decode smaller than they are, and a
    /// progressive JPEG keeps the coefficients of the whole picture even when it decodes scaled
    /// down, so the header's count is what a decode costs. A decompression bomb (8192 × 8192 of
    /// zeros: 67 megapixels, 268 MB decoded, from a 260 KB PNG) is refused from its header.
    public static let maxPixels = 4096 * 4096

    /// Whether a `width` × `height` picture is decoded.
    public static func decodes(width: Int, height: Int) -> Bool {
        (1...maxSide).contains(width) && (1...maxSide).contains(height) && width * height <= maxPixels
    }
    /// Redirects followed at most.
    public static let maxRedirects = 3
}
