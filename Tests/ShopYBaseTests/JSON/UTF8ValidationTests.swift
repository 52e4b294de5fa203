import XCTest
@testable import ShopYBase

/// `JSONParser.isValidUTF8` (the import's whole-file check) against the standard library's
/// validation: every sequence of up to three bytes, four-byte ones at their edges, across the
/// 16-byte chunks it skips ASCII in and the tail after them, and random mixtures.
final class UTF8ValidationTests: XCTestCase {
    private func expected(_ bytes: [UInt8]) -> Bool { String(validating: bytes, as: UTF8.self) != nil }

    private func check(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let valid = bytes.withUnsafeBufferPointer(JSONParser.isValidUTF8)
        if valid != expected(bytes) { XCTFail("\(bytes.map { String($0, radix: 16) }) valid: \(valid)", file: file, line: line) }
    }

    func testEverySequenceOfUpToThreeBytes() {
        // After 14 ASCII bytes, so that a sequence of two or more crosses a 16-byte chunk's end,
        // with more ASCII after it (a chunk) and without (the tail).
        let pad = [UInt8](repeating: 0x61, count: 14), after = [UInt8](repeating: 0x62, count: 20)
        for a in 0...255 {
            check(pad + [UInt8(a)] + after)
            check([UInt8(a)])
            for b in 0...255 {
                check(pad + [UInt8(a), UInt8(b)] + after)
                guard a >= 0xE0 && a <= 0xEF else { continue }
                for c in 0...255 { check(pad + [UInt8(a), UInt8(b), UInt8(c)] + after) }
            }
        }
    }

    func testFourByteSequencesAtTheirEdges() {
        let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
        for a in 0xF0...0xFF {
            for b in 0...255 {
                for c in edges {
                    for d in edges {
                        check([UInt8(a), UInt8(b), c, d])
                        check([0x61, UInt8(a), UInt8(b), c, d] + [UInt8](repeating: 0x61, count: 16))
                    }
                }
            }
        }
    }

    func testTruncatedSequencesAtTheEnd() {
        for sequence in [[0xEA, 0xB0, 0x80], [0xF0, 0x9F, 0x98, 0x80], [0xC3, 0xA9], [0xED, 0x9F, 0xBF], [0xEF, 0xBF, 0xBD]] as [[UInt8]] {
            for cut in 1...sequence.count {
                for pad in 0...20 { check([UInt8](repeating: 0x61, count: pad) + sequence.prefix(cut)) }
            }
        }
    }

    func testRandomMixtures() {
        // Mostly well-formed text (ASCII, Hangul, Latin, emoji) with a damaged byte now and then.
        var generator = SplitMix(17)
        let pieces: [[UInt8]] = [[0x61], [0x20], Array("가".utf8), Array("힣".utf8), Array("é".utf8), Array("😀".utf8), Array("\u{FFFD}".utf8),
                                 Array("\u{D7FF}".utf8), Array("\u{E000}".utf8), Array("\u{10FFFF}".utf8), Array("中".utf8)]
        let damage: [UInt8] = [0x80, 0xBF, 0xC0, 0xC1, 0xE0, 0xED, 0xF4, 0xF5, 0xFF]
        for _ in 0..<4_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(generator.next() % 40) {
                if generator.next() % 30 == 0 {
                    bytes.append(damage[Int(generator.next() % UInt64(damage.count))])
                } else {
                    bytes += pieces[Int(generator.next() % UInt64(pieces.count))]
                }
            }
            check(bytes)
        }
    }
}
