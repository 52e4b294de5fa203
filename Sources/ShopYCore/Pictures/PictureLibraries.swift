import Foundation
import CShopYShim
import ShopYBase

/// The system libraries pictures need, each opened with dlopen at its first use (never linked):
/// a command that draws no picture pays nothing, and a machine without one of them still shows
/// the card, with one hint line naming the package to install.
public enum PictureLibrary: CaseIterable, Sendable {
    case jpeg, png, webp, gif, chafa

    var code: cshopy_image_library {
        switch self {
        case .jpeg: return CSHOPY_IMAGE_LIBRARY_JPEG
        case .png: return CSHOPY_IMAGE_LIBRARY_PNG
        case .webp: return CSHOPY_IMAGE_LIBRARY_WEBP
        case .gif: return CSHOPY_IMAGE_LIBRARY_GIF
        case .chafa: return CSHOPY_IMAGE_LIBRARY_CHAFA
        }
    }

    /// What it is, in the hint and --verbose.
    public var name: String {
        switch self {
        case .jpeg: return "libturbojpeg"
        case .png: return "libpng"
        case .webp: return "libwebp"
        case .gif: return "giflib"
        case .chafa: return "libchafa"
        }
    }

    /// The file dlopen is given (`SHOPY_LIB<NAME>` names another, as SHOPY_LIBCURL does for libcurl).
    public var fileName: String {
        #if os(macOS)
        switch self {
        case .chafa: return "libchafa.0.dylib"
        default: return ""  // ImageIO decodes on macOS
        }
        #else
        switch self {
        case .jpeg: return "libturbojpeg.so.0"
        case .png: return "libpng16.so.16"
        case .webp: return "libwebp.so.7"
        case .gif: return "libgif.so.7"
        case .chafa: return "libchafa.so.0"
        }
        #endif
    }

    /// The environment variable that names another file to open (tests point it at nothing).
    public var overrideVariable: String {
        switch self {
        case .jpeg: return "SHOPY_LIBTURBOJPEG"
        case .png: return "SHOPY_LIBPNG"
        case .webp: return "SHOPY_LIBWEBP"
        case .gif: return "SHOPY_LIBGIF"
        case .chafa: return "SHOPY_LIBCHAFA"
        }
    }

    /// The package that brings it: Debian's name (Ubuntu's is the same), or Homebrew's on macOS.
    public var package: String {
        #if os(macOS)
        return "chafa"
        #else
        switch self {
        case .jpeg: return "libturbojpeg0"
        case .png: return "libpng16-16"
        case .webp: return "libwebp7"
        case .gif: return "libgif7"
        case .chafa: return "libchafa0"
        }
        #endif
    }

    /// The one hint line a missing library gives.
    public var installHint: String {
        #if os(macOS)
        return "pictures need \(name): brew install \(package)"
        #else
        return "pictures need \(name): install the \(package) package (e.g. sudo apt-get install \(package))"
        #endif
    }

    private static let loaded = LibraryTable()

    /// Opens the library once per process (thread-safe); nil when it is ready, else why not.
    /// `environment` may name another file (`overrideVariable`); the first call's answer stays.
    public func load(environment: [String: String]) -> PictureFailure? {
        Self.loaded.load(self, environment: environment)
    }
}

/// Each library's outcome, decided at its first use.
private final class LibraryTable: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [PictureLibrary: PictureFailure?] = [:]

    func load(_ library: PictureLibrary, environment: [String: String]) -> PictureFailure? {
        lock.lock()
        defer { lock.unlock() }
        if let outcome = outcomes[library] { return outcome }
        let outcome = open(library, environment: environment)
        outcomes[library] = .some(outcome)
        return outcome
    }

    private func open(_ library: PictureLibrary, environment: [String: String]) -> PictureFailure? {
        let name = environment[library.overrideVariable].flatMap { $0.isEmpty ? nil : $0 } ?? library.fileName
        guard !name.isEmpty else { return .missingLibrary(library, reason: "not used on this system") }
        // dlopen of a FIFO would block: a path must name a regular file (links followed).
        var info = stat()
        if name.contains("/"), stat(name, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            return .missingLibrary(library, reason: "\(name) is not a regular file")
        }
        var error = [CChar](repeating: 0, count: 512)
        let status = error.withUnsafeMutableBufferPointer { cshopy_image_load(library.code, name, $0.baseAddress, $0.count) }
        guard status == 0 else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .missingLibrary(library, reason: Sanitizer.clean(reason))
        }
        return nil
    }
}
