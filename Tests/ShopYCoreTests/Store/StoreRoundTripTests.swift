// A file shopy writes, shopy must read back as written. For each store file, random and extreme
// values go through its writer; then either the writer refused the value (with one clear error,
// every file as it was) or the reader reads back exactly what was written. The generator is
// seeded, and a failure names the seed and the round. (Through the commands, and the likes export:
// ShopYCLITests: HostileAnswerTests, WidgetBehaviourTests, LikesFileTests.)

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYTestSupport
import ShopYCLI  // ExitCode(for:) only: the one place errors become exit codes

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

final class StoreRoundTripTests: StoreUnitTestCase {
    static let seed: UInt64 = 0x5EED_2024
    static let rounds = 120

    /// Every file of the store, by name, to check that a refused write changed none.
    func files(_ store: SettingsStore) -> [String: [UInt8]] {
        var all: [String: [UInt8]] = [:]
        for name in names(in: store.directory) where !name.hasPrefix(".") { all[name] = contents(store.directory + "/" + name) }
        return all
    }

    /// A write either refused with a StoreError or SelectionError (and every file as before), or
    /// done; `check` then reads back.
    func roundTrip(_ what: String, _ store: SettingsStore, write: () throws -> Void, check: () throws -> Void,
                   file: StaticString = #filePath, line: UInt = #line) {
        let before = files(store)
        do {
            try write()
        } catch let error as StoreError {
            guard case .unstorable = error else { return XCTFail("\(what): \(error.message)", file: file, line: line) }
            XCTAssertEqual(ExitCode(for: error), .dataError, what, file: file, line: line)
            XCTAssertEqual(files(store), before, "\(what): a refused write changes nothing", file: file, line: line)
            return
        } catch {
            return XCTFail("\(what): \(error)", file: file, line: line)
        }
        do {
            try check()
        } catch {
            XCTFail("\(what): written, then not read back: \((error as? ShopyError)?.message ?? "\(error)")", file: file, line: line)
        }
    }

    // MARK: likes.json, likes.journal, likes.index

    func testLikesReadBackAsWritten() throws {
        var values = HostileValues(g: SeededGenerator(seed: Self.seed))
        // A small journal limit: the likes go through journal lines, compactions and the index.
        let store = SettingsStore(directory: directory + "/home", journalLimit: 2_048)
        var kept: [String: Like] = [:]
        for round in 0..<Self.rounds {
            let like = Like(product: values.product(), likedAt: values.bool() ? Like.timestamp(values.date()) : values.string(), likedPrice: values.optionalInt())
            let what = "seed \(Self.seed) round \(round): like \(like)"
            var refused: StoredValueError?
            roundTrip(what, store, write: {
                do {
                    try store.update([.likes]) { settings in
                        var likes = settings.likes
                        if try likes.insert(like) { settings.likes = likes }
                    }
                } catch let error as StoredValueError {
                    refused = error
                }
            }, check: {
                if refused == nil, kept[like.product.productId] == nil { kept[like.product.productId] = like }
                try store.read { settings in
                    XCTAssertEqual(try settings.likes.like(like.product.productId), kept[like.product.productId], what)
                }
            })
            if let refused {
                // Refused only for what the reader refuses: a negative number or an unusable id.
                let numbers = [like.product.price, like.product.highPrice, like.product.productType, like.likedPrice].compactMap { $0 }
                XCTAssertTrue(numbers.contains { $0 < 0 } || ProductID.usable(like.product.productId) != like.product.productId,
                              "\(what): refused (\(refused.problem)) though the reader would read it")
            }
            if round % 30 == 29 {
                let all = try store.read { try $0.allLikes() }
                XCTAssertEqual(Dictionary(uniqueKeysWithValues: all.map { ($0.product.productId, $0) }), kept, "seed \(Self.seed) round \(round)")
            }
        }
        XCTAssertGreaterThan(kept.count, Self.rounds / 4, "values the reader reads are stored")
    }

    /// The case: a hostile server's negative productType was stored, and every later
    /// read of likes.json said it was damaged. The extremes the reader accepts are all stored.
    func testNegativeNumbersAreRefusedAndExtremesKept() throws {
        let store = makeStore()
        var bad = like("81813683218")
        bad.product.productType = -1
        XCTAssertThrowsError(try store.update([.likes]) { settings in
            var likes = settings.likes
            likes.add(bad)
            settings.likes = likes
        }) { error in
            XCTAssertEqual((error as? StoreError).map(ExitCode.init(for:)), .dataError, "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path(of: .likes)))
        var extreme = like(String(repeating: "9", count: ProductID.maxLength))
        extreme.product.productType = Int.max
        extreme.product.price = Int.max
        extreme.product.title = "\u{0}\"\\\u{2028}\u{1B}[2J"
        extreme.likedPrice = 0
        try store.update([.likes]) { settings in
            var likes = settings.likes
            XCTAssertTrue(try likes.insert(extreme))
            settings.likes = likes
        }
        XCTAssertEqual(try store.read { try $0.allLikes() }, [extreme])
    }

    // MARK: state.json

    func testStateReadsBackAsWritten() throws {
        var values = HostileValues(g: SeededGenerator(seed: Self.seed + 1))
        let store = makeStore()
        for round in 0..<Self.rounds / 2 {
            let history = (0..<values.int(0...5)).map { _ in HistoryEntry(query: values.string(long: true), at: values.string()) }
            let listing: LastListing? = values.int(0...5) == 0 ? nil
                : LastListing(command: values.string(), savedAt: values.string(),
                              rows: (0..<values.int(0...6)).map { _ in LastListing.Row(row: values.string(max: 5), product: values.product()) })
            roundTrip("seed \(Self.seed + 1) round \(round)", store, write: {
                try store.update([.state]) { settings in
                    settings.history = history
                    settings.lastListing = listing
                }
            }, check: {
                try store.read { settings in
                    XCTAssertEqual(settings.history, history, "round \(round)")
                    XCTAssertEqual(settings.lastListing, listing, "round \(round)")
                }
            })
        }
    }

    // MARK: preferences.json

    func testPreferencesReadBackAsWritten() throws {
        var values = HostileValues(g: SeededGenerator(seed: Self.seed + 2))
        let store = makeStore()
        var written = 0
        for round in 0..<Self.rounds {
            let enabled = values.bool()
            let sections: [String]? = values.bool() ? nil : (0..<values.int(0...4)).map { _ in values.string() }
            var config: [String: String] = [:]
            for _ in 0..<values.int(0...4) { config[values.string(max: 8)] = values.string() }
            var widgets: [String: WidgetConfiguration] = [:]
            for _ in 0..<values.int(0...3) {
                let policy: WidgetPolicy?
                switch values.int(0...4) {
                case 0: policy = nil
                case 1: policy = .atEnd
                case 2: policy = .never
                default: policy = .after(values.date())
                }
                widgets[values.string(max: 8)] = WidgetConfiguration(show: (0..<values.int(0...5)).map { _ in values.string() }, policy: policy)
            }
            let expected = widgets.mapValues { configuration -> WidgetConfiguration in
                var stored = configuration
                if case .after(let date)? = configuration.policy { stored.policy = .after(HostileValues.stored(date)) }
                return stored
            }
            roundTrip("seed \(Self.seed + 2) round \(round)", store, write: {
                try store.update([.preferences]) { settings in
                    settings.historyEnabled = enabled
                    settings.popularSections = sections
                    settings.config = config
                    settings.widgets = widgets
                }
                written += 1
            }, check: {
                try store.read { settings in
                    XCTAssertEqual(settings.historyEnabled, enabled, "round \(round)")
                    XCTAssertEqual(settings.popularSections, sections, "round \(round)")
                    XCTAssertEqual(settings.config, config, "round \(round)")
                    XCTAssertEqual(settings.widgets, expected, "round \(round)")
                }
            })
        }
        XCTAssertEqual(written, Self.rounds, "every preference is storable")
    }

    // MARK: prices.json

    func testPricesReadBackAsWritten() throws {
        var values = HostileValues(g: SeededGenerator(seed: Self.seed + 3))
        let store = makeStore()
        for round in 0..<Self.rounds {
            var book = PriceBook()
            for _ in 0..<values.int(0...3) {
                var record = PriceRecord()
                for _ in 0..<(values.int(0...9) == 0 ? 120 : values.int(0...5)) { record.record(PricePoint(at: values.string(max: 8), price: values.optionalInt())) }
                if values.bool() {
                    var alert = PriceAlert(rule: values.bool() ? .below(values.integer()) : .drop(percent: values.int(-5...105)))
                    alert.armed = values.bool()
                    alert.firedAt = values.optionalString()
                    record.alert = alert
                }
                book[values.productId()] = record
            }
            roundTrip("seed \(Self.seed + 3) round \(round)", store, write: {
                try store.update([.prices]) { settings in settings.prices = book }
            }, check: {
                XCTAssertEqual(try store.read { $0.prices }, book, "round \(round)")
            })
        }
    }

    // MARK: widget-NAME.timeline.json

    func testWidgetTimelinesReadBackAsWritten() throws {
        var values = HostileValues(g: SeededGenerator(seed: Self.seed + 4))
        let home = directory + "/home"
        for round in 0..<Self.rounds {
            let policy: WidgetPolicy = [WidgetPolicy.atEnd, .never, .after(values.date())].randomElement(using: &values.g)!
            let entries = (0..<values.int(0...3)).map { _ in
                WidgetEntry(date: values.date(), items: (0..<values.int(0...3)).map { _ in
                    WidgetItem(optionID: values.string(), kind: WidgetOption.Kind.allCases.randomElement(using: &values.g)!, short: values.string(),
                               line: values.string(), link: values.optionalString(), tone: WidgetItem.Tone.allCases.randomElement(using: &values.g)!)
                })
            }
            let timeline = WidgetTimeline(name: "w\(round)", generatedAt: values.date(), policy: policy, fingerprint: StoreFingerprint(text: values.string()),
                                          shownIDs: (0..<values.int(0...4)).map { _ in values.string() }, entries: entries,
                                          retryAt: values.bool() ? values.date() : nil, lastError: values.optionalString())
            var expected = timeline
            expected.generatedAt = HostileValues.stored(timeline.generatedAt)
            if case .after(let date) = policy { expected.policy = .after(HostileValues.stored(date)) }
            expected.retryAt = timeline.retryAt.map(HostileValues.stored)
            // The failure's class is stored as the one clean short line it is read back as.
            expected.lastError = timeline.lastError.map(WidgetErrors.readBack)
            expected.entries = timeline.entries.map { WidgetEntry(date: HostileValues.stored($0.date), items: $0.items) }
            do {
                try timeline.save(directory: home)
            } catch {
                XCTFail("round \(round): \(error)")
                continue
            }
            XCTAssertEqual(WidgetTimeline.load(directory: home, name: timeline.name), expected, "seed \(Self.seed + 4) round \(round)")
        }
    }
}
