// Random and extreme values for the command line's read-back tests (a copy of the one in
// ShopYCoreTests/Store/StoreRoundTripTests.swift: test targets cannot share a type of the core).

import Foundation
@testable import ShopYCore
@testable import ShopYBase
import ShopYTestSupport

/// Random and extreme values of what the store keeps.
struct HostileValues {
    var g: SeededGenerator

    /// Scalars that have broken writers: controls, quotes, escapes, separators, invisible and
    /// joining characters, wide and astral ones.
    static let scalars: [Unicode.Scalar] = [
        "\u{0}", "\u{1}", "\t", "\n", "\r", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "\"", "\\", "/", "'", "`", "$", ";", "&", "|", "<", ">",
        "{", "}", "[", "]", ":", ",", " ", "%", "a", "Z", "0", "9", "가", "힣", "ㄱ", "\u{0301}", "\u{0600}", "\u{200B}", "\u{200D}",
        "\u{2028}", "\u{2029}", "\u{202E}", "\u{FEFF}", "\u{FFFD}", "\u{FFFF}", "😀", "\u{1F1F0}", "\u{1F1F7}", "\u{E000}", "\u{10FFFF}",
    ]

    mutating func bool() -> Bool { Bool.random(using: &g) }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &g) }

    /// Up to `max` of the scalars above; now and then (`long`) 2,000 to 40,000 of them.
    mutating func string(max: Int = 24, long: Bool = false) -> String {
        if long && int(0...20) == 0 { return String(repeating: "가\u{0}", count: int(1_000...20_000)) }
        var s = String.UnicodeScalarView()
        for _ in 0..<int(0...max) { s.append(Self.scalars.randomElement(using: &g)!) }
        return String(s)
    }

    mutating func optionalString() -> String? { int(0...3) == 0 ? nil : string() }

    /// Ints of every sign and size, the ends included.
    mutating func integer() -> Int {
        switch int(0...7) {
        case 0: return [0, 1, -1, Int.max, Int.min, Int(Int32.max), 99, 100].randomElement(using: &g)!
        case 1: return Int.random(in: Int.min...Int.max, using: &g)
        case 2: return -int(1...1_000_000)
        default: return int(0...10_000_000)
        }
    }

    mutating func optionalInt() -> Int? { int(0...3) == 0 ? nil : integer() }

    /// Mostly usable productIds (1 to 32 digits), sometimes not.
    mutating func productId() -> String {
        if int(0...9) == 0 { return ["", " 1", "1 ", "abc", "１２３", String(repeating: "9", count: 33), "-1", "1.5", "1e3"].randomElement(using: &g)! }
        return String((0..<int(1...32)).map { _ in Character(String(int(0...9))) })
    }

    mutating func product(id: String? = nil) -> Product {
        Product(productId: id ?? productId(), title: string(long: true), price: optionalInt(), highPrice: optionalInt(), mall: optionalString(),
                brand: optionalString(), maker: optionalString(), categories: (0..<int(0...4)).map { _ in string() },
                productType: optionalInt(), link: optionalString(), image: optionalString())
    }

    /// Whole seconds in and around the years 0000–9999, and the times that break formatters.
    mutating func date() -> Date {
        switch int(0...6) {
        case 0: return Date(timeIntervalSince1970: [-62_135_596_800, -62_167_219_200, 253_402_300_799, 0, -1, 1_780_000_000].randomElement(using: &g)!)
        case 1: return Date(timeIntervalSince1970: Double(int(-62_167_219_200...253_402_300_799)) + Double(int(0...999)) / 1000)
        case 2: return Date(timeIntervalSince1970: [253_402_300_800, -62_167_219_201, 1e15, -1e15].randomElement(using: &g)!)
        default: return Date(timeIntervalSince1970: Double(int(-62_167_219_200...253_402_300_799)))
        }
    }

    /// The date the store keeps for `date`: whole seconds, within the years 0000–9999.
    static func stored(_ date: Date) -> Date {
        Date(timeIntervalSince1970: min(max(date.timeIntervalSince1970.rounded(.down), Like.earliestSecond), Like.latestSecond))
    }
}
