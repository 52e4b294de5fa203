import XCTest
@testable import ShopYCore

/// The pages a search hands back of a mapped index (`CatalogMapping.span`): whole units, rounded
/// as asked, never outside the mapping, whatever the mapping's alignment.
final class CatalogReleaseSpanTests: XCTestCase {
    let unit: UInt = 2 << 20, page: UInt = 4096
    /// A page-aligned mapping that is not unit-aligned, 5 MiB long.
    let base: UInt = 0x10_0000_1000, size = 5 << 20

    func span(_ range: Range<Int>, _ start: CatalogMapping.Rounding, _ end: CatalogMapping.Rounding) -> Range<UInt>? {
        CatalogMapping.span(of: range, base: base, size: size, unit: unit, page: page, start: start, end: end)
    }

    func testTheWholeFileRoundedDownStartsAtTheMappingAndEndsAtAUnit() {
        XCTAssertEqual(span(0..<size, .down, .down), 0x10_0000_1000..<0x10_0040_0000)
        XCTAssertEqual(span(0..<size, .up, .down), 0x10_0020_0000..<0x10_0040_0000)
    }

    func testAnEndRoundedUpStopsAtTheMappingsLastPage() {
        XCTAssertEqual(span((4 << 20)..<size, .down, .up), 0x10_0040_0000..<0x10_0050_1000)
        XCTAssertEqual(span(0..<size, .down, .up), 0x10_0000_1000..<0x10_0050_1000)
    }

    func testARangeInsideOneUnitHandsBackNothingUnlessRoundedOutward() {
        XCTAssertNil(span((1 << 20)..<(3 << 19), .down, .down))
        XCTAssertNil(span((1 << 20)..<(3 << 19), .up, .down))
        XCTAssertEqual(span((1 << 20)..<(3 << 19), .down, .up), 0x10_0000_1000..<0x10_0020_0000)
    }

    func testEveryAnswerIsPageAlignedAndInsideTheMapping() {
        var rng = SplitMix(3)
        for _ in 0..<2_000 {
            let a = Int(rng.next() % UInt64(size + 1)), b = Int(rng.next() % UInt64(size + 1))
            for start in [CatalogMapping.Rounding.down, .up] {
                for end in [CatalogMapping.Rounding.down, .up] {
                    guard let got = span(min(a, b)..<max(a, b), start, end) else { continue }
                    XCTAssertGreaterThanOrEqual(got.lowerBound, base)
                    XCTAssertLessThanOrEqual(got.upperBound, base + UInt(size))
                    XCTAssertEqual(got.lowerBound % page, 0)
                    XCTAssertEqual(got.upperBound % page, 0)
                    XCTAssertTrue(got.lowerBound == base || got.lowerBound % unit == 0, "a unit boundary or the mapping's start")
                }
            }
        }
    }

    func testNothingForAnEmptyOrOutOfBoundsRange() {
        XCTAssertNil(span(0..<0, .down, .up))
        XCTAssertNil(span(0..<(size + 1), .down, .down))
        XCTAssertNil(span(-4096..<4096, .down, .up))
    }
}
