/// The picture formats shopy draws, told by their first bytes, and each one's size read from its
/// header alone: a picture too large to decode is refused before any decoder sees it (a
/// decompression bomb costs nothing but its header).
public enum PictureFormat: String, CaseIterable, Sendable {
    case jpeg, png, webp, gif

    public var name: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .webp: return "WebP"
        case .gif: return "GIF"
        }
    }

    /// The Content-Type a server sends for it.
    public var mediaType: String { "image/" + rawValue }

    /// The format a Content-Type names (`image/jpeg; charset=…`, any case; `image/jpg` too), or nil.
    public init?(mediaType: String) {
        let essence = mediaType.split(separator: ";", maxSplits: 1).first.map { String($0).trimmingASCIIWhitespace().lowercased() } ?? ""
        switch essence {
        case "image/jpeg", "image/jpg", "image/pjpeg": self = .jpeg
        case "image/png": self = .png
        case "image/webp": self = .webp
        case "image/gif": self = .gif
        default: return nil
        }
    }

    /// The format whose signature `bytes` start with, or nil.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(16))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count && Array(head[offset..<(offset + signature.count)]) == signature
        }
        if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { self = .png }
        else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { self = .gif }
        else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { self = .webp }
        else { return nil }
    }

    /// Width and height as the header declares them, or nil when the header is cut short or
    /// malformed. Reads at most the bytes given; never decodes pixels.
    public func dimensions(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        switch self {
        case .png: return Self.pngSize(bytes)
        case .gif: return Self.gifSize(bytes)
        case .webp: return Self.webpSize(bytes)
        case .jpeg: return Self.jpegSize(bytes)
        }
    }

    private static func be32(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func le24(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 }

    /// The IHDR chunk comes first: length 13, "IHDR", width, height (big-endian).
    private static func pngSize(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 24, be32(b, 8) == 13, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        return (be32(b, 16), be32(b, 20))
    }

    /// The logical screen, then the first frame (which must lie within it; giflib checks that too).
    private static func gifSize(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 10 else { return nil }
        return (le16(b, 6), le16(b, 8))
    }

    /// RIFF "WEBP", then VP8X (canvas size), VP8 (a key frame's size) or VP8L (lossless).
    private static func webpSize(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 30 else { return nil }
        let chunk = String(decoding: b[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8X": return (le24(b, 24) + 1, le24(b, 27) + 1)
        case "VP8 ":
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return (le16(b, 26) & 0x3FFF, le16(b, 28) & 0x3FFF)
        case "VP8L":
            guard b[20] == 0x2F else { return nil }
            let bits = Int(b[21]) | Int(b[22]) << 8 | Int(b[23]) << 16 | Int(b[24]) << 24
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        default: return nil
        }
    }

    /// The first start-of-frame marker's height and width, walking the segments from SOI.
    private static func jpegSize(_ b: [UInt8]) -> (Int, Int)? {
        var i = 2
        while i + 3 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }  // no length
            if marker == 0xD9 || marker == 0xDA { return nil }  // end, or scan data before any frame
            let length = be16(b, i + 2)
            guard length >= 2 else { return nil }
            // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC {
                guard i + 9 <= b.count, length >= 7 else { return nil }
                return (be16(b, i + 7), be16(b, i + 5))
            }
            i += 2 + length
        }
        return nil
    }
}
