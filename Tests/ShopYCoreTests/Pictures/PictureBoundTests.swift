@testable import ShopYBase
@testable import ShopYCatalog
import Foundation
import XCTest
@testable import ShopYCore
import ShopYTestSupport

/// The decoded-size bound: a picture's pixel count is read from its header and a picture over
/// `PictureLimits.maxPixels` is refused before any decoder runs (a decompression bomb costs
/// its header), while one at the bound decodes.
final class PictureBoundTests: XCTestCase {
    func testABombOfZerosIsRefusedFromItsHeader() throws {
        let bomb = ZeroPNG.make(width: 8192, height: 8192)
        XCTAssertLessThan(bomb.count, PictureLimits.maxBytes, "within the size limit of an answer")
        XCTAssertEqual(PictureFormat.png.dimensions(bomb)?.width, 8192)
        let result = PictureDecoder.decode(bomb, declared: .png, source: "bomb", environment: [:])
        XCTAssertEqual(result.failureValue, .tooManyPixels(width: 8192, height: 8192))
        let reason = result.failureValue?.reason ?? ""
        XCTAssertTrue(reason.contains("8192×8192 pixels (67.1 megapixels)"), reason)
        XCTAssertTrue(reason.contains("at most 16.8 megapixels"), reason)
        // One row more than the bound's square is refused too; a side alone never decides it.
        XCTAssertEqual(PictureDecoder.decode(ZeroPNG.make(width: 4096, height: 4097), declared: .png, source: "x", environment: [:]).failureValue,
                       .tooManyPixels(width: 4096, height: 4097))
        XCTAssertFalse(PictureLimits.decodes(width: 8192, height: 2049))
        XCTAssertTrue(PictureLimits.decodes(width: 8192, height: 2048))
    }

    func testAPictureAtTheBoundDecodes() throws {
        try PictureFixtures.require(.png)
        let picture = try PictureDecoder.decode(ZeroPNG.make(width: 4096, height: 4096), declared: .png, source: "x", environment: [:]).get()
        XCTAssertEqual(picture.width, 4096)
        XCTAssertEqual(picture.height, 4096)
        XCTAssertEqual(picture.pixels.count, 4096 * 4096 * 4)
        XCTAssertEqual(Array(picture.pixels.suffix(4)), [0, 0, 0, 255], "black, opaque")
    }

    func testTheGeneratorMakesAPictureLibpngReads() throws {
        try PictureFixtures.require(.png)
        let picture = try PictureDecoder.decode(ZeroPNG.make(width: 300, height: 7), declared: .png, source: "x", environment: [:]).get()
        XCTAssertEqual(picture.width, 300)
        XCTAssertEqual(picture.pixels.count, 300 * 7 * 4)
    }

}
