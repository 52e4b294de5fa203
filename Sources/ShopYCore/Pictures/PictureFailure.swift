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
            return "the picture is \(width)×\(height) pixels; at most \(PictureLimits.maxSide)×\(PictureLimits.maxSide) are decoded"
        case .corrupt(let format, let detail): return "the \(format.name) does not decode: \(Sanitizer.clean(detail))"
        case .drawing(let words): return "libchafa could not draw it: \(Sanitizer.clean(words))"
        case .off(let why): return why
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
    /// Redirects followed at most.
    public static let maxRedirects = 3
}
