import Foundation
import CShopYShim
#if canImport(ImageIO)
import ImageIO
import CoreGraphics
#endif

/// A decoded picture: RGBA pixels, 8 bits a channel, not premultiplied, rows of `width * 4`
/// bytes. A class, so that browse's state holds it by reference and compares it by identity.
public final class DecodedPicture: @unchecked Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]
    /// The URL it came from (for --verbose and the cache).
    public let source: String

    public init(width: Int, height: Int, pixels: [UInt8], source: String) {
        self.width = width
        self.height = height
        self.pixels = pixels
        self.source = source
    }

    public static func == (a: DecodedPicture, b: DecodedPicture) -> Bool { a === b }
}

/// Decodes a picture's bytes with the system's libraries (libturbojpeg, libpng, libwebp, giflib
/// on Linux; ImageIO on macOS): the format is told by the bytes' signature, which must agree with
/// the type the server declared, and the size is read from the header and bounded before any
/// decoder runs.
public enum PictureDecoder {
    /// `declared`: the format the Content-Type named (nil for a cached picture, checked when it
    /// was fetched). `want`: pixels enough for the largest canvas it will be drawn on (a JPEG is
    /// scaled down while decoding when it can still cover them).
    public static func decode(_ bytes: [UInt8], declared: PictureFormat?, source: String, want: (width: Int, height: Int)? = nil,
                              environment: [String: String]) -> Result<DecodedPicture, PictureFailure> {
        guard let format = PictureFormat(sniffing: bytes) else {
            return .failure(.type("the bytes are not a JPEG, PNG, WebP or GIF picture" + (declared.map { " (the server said \($0.mediaType))" } ?? "")))
        }
        if let declared, declared != format {
            return .failure(.type("the server said \(declared.mediaType) but sent a \(format.name)"))
        }
        guard let (width, height) = format.dimensions(bytes) else {
            return .failure(.corrupt(format: format, detail: "its header is cut short or malformed"))
        }
        guard PictureLimits.decodes(width: width, height: height) else {
            return .failure(.tooManyPixels(width: width, height: height))
        }
        #if canImport(ImageIO)
        return imageIO(bytes, format: format, source: source)
        #else
        return system(bytes, format: format, width: width, height: height, source: source, want: want, environment: environment)
        #endif
    }

    /// The JPEG decoder's scale: the smallest of 1/8, 1/4 and 1/2 whose result still covers
    /// `want`, else 1 (full size).
    static func jpegScale(width: Int, height: Int, want: (width: Int, height: Int)?) -> Int {
        guard let want, want.width > 0, want.height > 0 else { return 1 }
        for scale in [8, 4, 2] where (width + scale - 1) / scale >= want.width && (height + scale - 1) / scale >= want.height {
            return scale
        }
        return 1
    }

    #if !canImport(ImageIO)
    /// Decodes into the picture's one buffer, allocated here at the size the header gave (the
    /// decoder must find the same): no copy is made after decoding.
    private static func system(_ bytes: [UInt8], format: PictureFormat, width: Int, height: Int, source: String,
                               want: (width: Int, height: Int)?, environment: [String: String]) -> Result<DecodedPicture, PictureFailure> {
        let library: PictureLibrary
        switch format {
        case .jpeg: library = .jpeg
        case .png: library = .png
        case .webp: library = .webp
        case .gif: library = .gif
        }
        if let failure = library.load(environment: environment) { return .failure(failure) }
        let scale = format == .jpeg ? jpegScale(width: width, height: height, want: want) : 1
        let outWidth = (width + scale - 1) / scale, outHeight = (height + scale - 1) / scale
        var pixels = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        var error = [CChar](repeating: 0, count: 256)
        let w = Int32(width), h = Int32(height)
        let status: Int32 = bytes.withUnsafeBufferPointer { data in
            pixels.withUnsafeMutableBufferPointer { out in
                error.withUnsafeMutableBufferPointer { message in
                    switch format {
                    case .jpeg: return cshopy_decode_jpeg(data.baseAddress, data.count, w, h, Int32(scale), out.baseAddress, message.baseAddress, message.count)
                    case .png: return cshopy_decode_png(data.baseAddress, data.count, w, h, out.baseAddress, message.baseAddress, message.count)
                    case .webp: return cshopy_decode_webp(data.baseAddress, data.count, w, h, out.baseAddress, message.baseAddress, message.count)
                    case .gif: return cshopy_decode_gif(data.baseAddress, data.count, w, h, out.baseAddress, message.baseAddress, message.count)
                    }
                }
            }
        }
        let words = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard status == 0 else {
            if status == -2 { return .failure(.corrupt(format: format, detail: "the decoder found another size than the header: \(words)")) }
            return .failure(.corrupt(format: format, detail: words.isEmpty ? "the decoder refused it" : words))
        }
        return .success(DecodedPicture(width: outWidth, height: outHeight, pixels: pixels, source: source))
    }
    #endif

    #if canImport(ImageIO)
    /// macOS: ImageIO decodes (the first frame), CoreGraphics draws it into RGBA.
    private static func imageIO(_ bytes: [UInt8], format: PictureFormat, source: String) -> Result<DecodedPicture, PictureFailure> {
        let data = Data(bytes) as CFData
        guard let imageSource = CGImageSourceCreateWithData(data, nil), CGImageSourceGetCount(imageSource) > 0,
              let image = CGImageSourceCreateImageAtIndex(imageSource, 0, nil) else {
            return .failure(.corrupt(format: format, detail: "ImageIO cannot read it"))
        }
        let width = image.width, height = image.height
        guard PictureLimits.decodes(width: width, height: height) else {
            return .failure(.tooManyPixels(width: width, height: height))
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let drawn: Bool = pixels.withUnsafeMutableBytes { buffer in
            guard let context = CGContext(data: buffer.baseAddress, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width * 4,
                                          space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else { return false }
            context.draw(image, in: CGRect(x: 0, y: 0, width: width, height: height))
            return true
        }
        guard drawn else { return .failure(.corrupt(format: format, detail: "CoreGraphics cannot draw it")) }
        // Premultiplied by CoreGraphics; chafa is told unassociated, so undo it.
        for i in stride(from: 0, to: pixels.count, by: 4) where pixels[i + 3] != 0 && pixels[i + 3] != 255 {
            let alpha = Int(pixels[i + 3])
            for c in 0..<3 { pixels[i + c] = UInt8(min(255, Int(pixels[i + c]) * 255 / alpha)) }
        }
        return .success(DecodedPicture(width: width, height: height, pixels: pixels, source: source))
    }
    #endif
}
