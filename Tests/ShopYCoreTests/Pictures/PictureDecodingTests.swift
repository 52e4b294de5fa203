import XCTest
@testable import ShopYCore
import ShopYTestSupport

/// The picture fixtures (Scripts/make-picture-fixtures.py), read from Fixtures/pictures.
enum PictureFixtures {
    static let directory = Repository.root().appendingPathComponent("Fixtures/pictures")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// Skips the test, with the reason, when `library` cannot be loaded on this machine.
    static func require(_ library: PictureLibrary) throws {
        if let failure = library.load(environment: ProcessInfo.processInfo.environment) {
            throw XCTSkip("\(failure.reason); \(failure.hint ?? "")")
        }
    }
}

/// Each format decoded by its system library from the project's own fixtures: size and colours.
final class PictureDecodingTests: XCTestCase {
    /// The fixture's four quadrants (red, green, blue, yellow) and its white centre.
    func assertQuadrants(_ picture: DecodedPicture, tolerance: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(picture.width, 64, file: file, line: line)
        XCTAssertEqual(picture.height, 48, file: file, line: line)
        XCTAssertEqual(picture.pixels.count, 64 * 48 * 4, file: file, line: line)
        func pixel(_ x: Int, _ y: Int) -> [Int] {
            let i = (y * picture.width + x) * 4
            return picture.pixels[i..<(i + 4)].map(Int.init)
        }
        let expected: [(Int, Int, [Int])] = [(4, 4, [220, 40, 40]), (60, 4, [40, 180, 60]), (4, 44, [40, 80, 220]), (60, 44, [240, 200, 40]), (32, 24, [255, 255, 255])]
        for (x, y, rgb) in expected {
            let found = pixel(x, y)
            for c in 0..<3 { XCTAssertLessThanOrEqual(abs(found[c] - rgb[c]), tolerance, "pixel \(x),\(y): \(found) vs \(rgb)", file: file, line: line) }
            XCTAssertEqual(found[3], 255, "opaque", file: file, line: line)
        }
    }

    func decode(_ name: String, _ format: PictureFormat) throws -> DecodedPicture {
        try PictureDecoder.decode(try PictureFixtures.bytes(name), declared: format, source: name, environment: [:]).get()
    }

    func testPNG() throws {
        try PictureFixtures.require(.png)
        assertQuadrants(try decode("quadrants.png", .png), tolerance: 0)
    }

    func testJPEG() throws {
        try PictureFixtures.require(.jpeg)
        assertQuadrants(try decode("quadrants.jpg", .jpeg), tolerance: 24)
        assertQuadrants(try decode("quadrants-progressive.jpg", .jpeg), tolerance: 24)
    }

    func testJPEGScaledWhileDecoding() throws {
        try PictureFixtures.require(.jpeg)
        let bytes = try PictureFixtures.bytes("bench-1000.jpg")
        let picture = try PictureDecoder.decode(bytes, declared: .jpeg, source: "x", want: (240, 200), environment: [:]).get()
        XCTAssertEqual(picture.width, 250, "1/4 still covers 240 × 200")
        XCTAssertEqual(picture.height, 250)
        let full = try PictureDecoder.decode(bytes, declared: .jpeg, source: "x", environment: [:]).get()
        XCTAssertEqual(full.width, 1000)
    }

    func testWebP() throws {
        try PictureFixtures.require(.webp)
        assertQuadrants(try decode("quadrants.webp", .webp), tolerance: 0)
    }

    func testGIFFirstFrame() throws {
        try PictureFixtures.require(.gif)
        // The second frame is black: the first is what is drawn.
        assertQuadrants(try decode("quadrants.gif", .gif), tolerance: 8)
    }

    func testHeaderSizesWithoutDecoding() throws {
        for (name, format) in [("quadrants.png", PictureFormat.png), ("quadrants.jpg", .jpeg), ("quadrants-progressive.jpg", .jpeg),
                               ("quadrants.webp", .webp), ("quadrants.gif", .gif)] {
            let bytes = try PictureFixtures.bytes(name)
            XCTAssertEqual(PictureFormat(sniffing: bytes), format, name)
            let size = format.dimensions(bytes)
            XCTAssertEqual(size?.width, 64, name)
            XCTAssertEqual(size?.height, 48, name)
        }
        XCTAssertEqual(PictureFormat.jpeg.dimensions(try PictureFixtures.bytes("bench-1000.jpg"))?.width, 1000)
    }

    func testLossyWebPHeader() {
        // RIFF, size, WEBP, "VP8 ", chunk size, frame tag, start code, 14-bit width and height.
        var bytes = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [0, 0, 0, 0] + [0, 0, 0, 0x9D, 0x01, 0x2A]
        bytes += [0x40, 0x01, 0xF0, 0x00]  // 320 × 240
        XCTAssertEqual(PictureFormat.webp.dimensions(bytes)?.width, 320)
        XCTAssertEqual(PictureFormat.webp.dimensions(bytes)?.height, 240)
    }

    func testDeclaredTypeMustMatchTheBytes() throws {
        let png = try PictureFixtures.bytes("quadrants.png")
        guard case .failure(.type(let why)) = PictureDecoder.decode(png, declared: .jpeg, source: "x", environment: [:]) else {
            return XCTFail("a PNG declared as JPEG is refused")
        }
        XCTAssertTrue(why.contains("image/jpeg"), why)
        let text = Array("\u{1B}]0;pwned\u{07}<html>".utf8)
        guard case .failure(.type) = PictureDecoder.decode(text, declared: .png, source: "x", environment: [:]) else {
            return XCTFail("text declared as PNG is refused")
        }
    }

    func testTooManyPixelsRefusedFromTheHeader() throws {
        // A PNG header declaring 1 × 100000 and nothing after it: refused before any decoder runs.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        png += [0, 0, 0, 1, 0, 1, 0x86, 0xA0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        XCTAssertEqual(PictureDecoder.decode(png, declared: .png, source: "x", environment: [:]).failureValue,
                       .tooManyPixels(width: 1, height: 100_000))
    }

    func testTruncatedAndCorruptFail() throws {
        for (name, format, library) in [("quadrants.png", PictureFormat.png, PictureLibrary.png), ("quadrants.jpg", .jpeg, .jpeg),
                                        ("quadrants.webp", .webp, .webp), ("quadrants.gif", .gif, .gif)] {
            try PictureFixtures.require(library)
            let bytes = try PictureFixtures.bytes(name)
            let cut = Array(bytes.prefix(bytes.count * 2 / 3))
            XCTAssertNotNil(PictureDecoder.decode(cut, declared: format, source: name, environment: [:]).failureValue, "truncated \(name)")
            var garbled = bytes
            for i in stride(from: 40, to: garbled.count, by: 7) { garbled[i] ^= 0x5A }
            if case .success(let picture) = PictureDecoder.decode(garbled, declared: format, source: name, environment: [:]) {
                // A decoder may survive a garbled body; what it returns is still a whole picture.
                XCTAssertEqual(picture.pixels.count, picture.width * picture.height * 4)
            }
        }
    }

    func testMissingLibraryNamesThePackage() {
        let failure = PictureFailure.missingLibrary(.chafa, reason: "libchafa.so.0: cannot open shared object file")
        XCTAssertTrue(failure.hint?.contains("libchafa0") ?? false, failure.hint ?? "")
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
