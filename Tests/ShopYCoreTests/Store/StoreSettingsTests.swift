// Tests for the @Stored settings and their files, and damaged files.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYBase

final class StoreSettingsTests: StoreUnitTestCase {
    // MARK: - Settings

    func testEverySettingHasItsDefaultWhenNothingIsStored() throws {
        let store = makeStore()
        try store.read { settings in
            XCTAssertTrue(settings.likes.isEmpty)
            XCTAssertEqual(settings.history, [])
            XCTAssertNil(settings.lastListing)
            XCTAssertTrue(settings.historyEnabled)
            XCTAssertNil(settings.popularSections)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.directory), "reading creates nothing")

        // A transaction that changes nothing writes nothing.
        try store.update(Set(Suite.all)) { settings in _ = settings.likes.count + settings.history.count }
        XCTAssertEqual(names(in: store.directory).filter { !$0.hasPrefix(".") }, [])
        XCTAssertEqual(FileIO.mode(of: store.directory), 0o700)
    }

    func testEverySettingRoundTripsThroughItsOwnFile() throws {
        let store = makeStore()
        var likes = LikeCollection()
        likes.add(like("111", title: "첫 \"번째\"\n줄바꿈"))
        likes.add(like("222", price: nil))
        let history = [HistoryEntry(query: "방충망", at: "2026-01-02T03:04:05Z"), HistoryEntry(query: "모기장", at: "2026-01-01T00:00:00Z")]
        let listing = LastListing(command: "search 방충망", savedAt: "2026-01-02T03:04:05Z",
                                  rows: [.init(row: "1", product: product("111")), .init(row: "2.5", product: product("333", price: nil))])
        try store.update(Set(Suite.all)) { settings in
            settings.likes = likes
            settings.history = history
            settings.lastListing = listing
            settings.historyEnabled = false
            settings.popularSections = ["패션의류", "디지털/가전"]
            var prices = PriceBook()
            prices["111"] = PriceRecord()
            settings.prices = prices
        }
        for suite in Suite.all {
            let path = store.path(of: suite)
            XCTAssertEqual(FileIO.mode(of: path), 0o600, suite.name)
            let json = try JSONParser.parse(try XCTUnwrap(contents(path), suite.name))
            XCTAssertEqual(json["schema"]?.intValue, suite.schema, suite.name)
        }
        XCTAssertNotNil(try JSONParser.parse(contents(store.path(of: .likes))!)["likes"])
        XCTAssertNotNil(try JSONParser.parse(contents(store.path(of: .state))!)["history"])
        XCTAssertNotNil(try JSONParser.parse(contents(store.path(of: .state))!)["lastListing"])
        XCTAssertEqual(try JSONParser.parse(contents(store.path(of: .preferences))!)["historyEnabled"], .bool(false))

        // A fresh store object reads it all back.
        let again = SettingsStore(directory: store.directory)
        try again.read { settings in
            XCTAssertEqual(try settings.likes.all(), try likes.all())
            XCTAssertEqual(try settings.allLikes(), try likes.all())
            XCTAssertEqual(settings.history, history)
            XCTAssertEqual(settings.lastListing, listing)
            XCTAssertFalse(settings.historyEnabled)
            XCTAssertEqual(settings.popularSections, ["패션의류", "디지털/가전"])
        }

        // Back to the defaults, which are stored as such.
        try again.update([.state, .preferences]) { settings in
            settings.lastListing = nil
            settings.historyEnabled = true
            settings.popularSections = nil
        }
        try makeStore().read { settings in
            XCTAssertNil(settings.lastListing)
            XCTAssertTrue(settings.historyEnabled)
            XCTAssertNil(settings.popularSections)
            XCTAssertEqual(settings.history, history, "the other key of state.json is kept")
        }
    }

    func testUnknownKeysOfANewerWriterOfTheSameSchemaAreKept() throws {
        let store = makeStore()
        try write("{\"schema\":1,\"future\":{\"a\":[1,2]},\"historyEnabled\":true}", to: store.path(of: .preferences))
        try store.update([.preferences]) { $0.historyEnabled = false }
        let json = try JSONParser.parse(contents(store.path(of: .preferences))!)
        XCTAssertEqual(json["future"], try JSONParser.parse("{\"a\":[1,2]}"))
        XCTAssertEqual(json["historyEnabled"], .bool(false))
    }

    func testAWriteToStateDoesNotTouchLikes() throws {
        let store = makeStore()
        try store.update([.likes]) { settings in
            var likes = settings.likes
            likes.add(like("111"))
            settings.likes = likes
        }
        let likesPath = store.path(of: .likes)
        let bytes = contents(likesPath)
        // A modification time long past: a rewrite would show in it, however soon it came.
        var past = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, likesPath, &past, 0), 0)
        let before = identity(likesPath)
        try store.update([.state]) { settings in
            settings.history = HistoryEntry.record("방충망", at: "2026-01-02T03:04:05Z", in: settings.history)
            settings.lastListing = LastListing(command: "search 방충망", savedAt: "2026-01-02T03:04:05Z", rows: [])
        }
        // Both files locked, only state changed: likes.json is not rewritten either.
        try store.update([.likes, .state]) { settings in
            _ = settings.likes.count
            settings.history = []
        }
        XCTAssertEqual(contents(likesPath), bytes)
        XCTAssertEqual(identity(likesPath), before, "likes.json was not replaced")
        XCTAssertTrue(try store.read { $0.history.isEmpty })
    }

    func testDamagedFilesAreReportedWithTheirPathAndLeftUnchanged() throws {
        let cases: [(String, String)] = [
            ("empty", ""),
            ("whitespace", "  \n\t \n"),
            ("truncated", "{\"schema\":1,\"likes\":["),
            ("truncated inside a like", "{\"schema\":1,\n\"likes\":[\n{\"productId\":\"111\",\"title\":\"방"),
            ("garbage", "garbage"),
            ("binary", "\u{0}\u{1}\u{2}{"),
            ("an array", "[]"),
            ("no schema", "{\"likes\":[]}"),
            ("schema as a string", "{\"schema\":\"1\",\"likes\":[]}"),
            ("schema 0", "{\"schema\":0,\"likes\":[]}"),
            ("schema 99", "{\"schema\":99,\"likes\":[]}"),
            ("trailing data", "{\"schema\":1,\"likes\":[]}\n{}"),
            ("likes not a list", "{\"schema\":1,\"likes\":{}}"),
            ("likes null", "{\"schema\":1,\"likes\":null}"),
            ("a like without productId", "{\"schema\":1,\"likes\":[{\"title\":\"x\"}]}"),
            ("a like with a numeric productId", "{\"schema\":1,\"likes\":[{\"productId\":80285861246,\"title\":\"x\"}]}"),
            ("a like with an empty productId", "{\"schema\":1,\"likes\":[{\"productId\":\"\",\"title\":\"x\"}]}"),
            ("a like that is a string", "{\"schema\":1,\"likes\":[\"80285861246\"]}"),
        ]
        for (name, text) in cases {
            let store = SettingsStore(directory: directory + "/\(name.replacingOccurrences(of: " ", with: "-"))")
            let path = store.path(of: .likes)
            try write(text, to: path)
            let bytes = contents(path)

            let error = expectStoreError(path, "\(name): read") { _ = try store.read { $0.likes } }
            if name == "schema 99" {
                XCTAssertEqual(error, .newerSchema(path: path, found: 99, known: Suite.likes.schema))
            }
            expectStoreError(path, "\(name): update") {
                try store.update([.likes]) { settings in
                    var likes = settings.likes
                    likes.add(self.like("222"))
                    settings.likes = likes
                }
            }
            expectStoreError(path, "\(name): update that only reads") { try store.update([.likes]) { _ = $0.likes.count } }
            XCTAssertEqual(contents(path), bytes, "\(name): the file is byte-for-byte unchanged")
            XCTAssertEqual(names(in: store.directory), [".likes.lock", "likes.json"], "\(name): nothing else was written")

            // Other files are still usable.
            try store.update([.state]) { $0.history = [HistoryEntry(query: "q", at: "t")] }
            XCTAssertEqual(try store.read { $0.history.count }, 1, name)
        }
    }

    func testDamagedStateAndPreferencesAreReportedWithTheirPath() throws {
        let cases: [(Suite, String)] = [
            (.state, "{\"schema\":1,\"history\":[{\"query\":1,\"at\":\"t\"}]}"),
            (.state, "{\"schema\":1,\"history\":{}}"),
            (.state, "{\"schema\":1,\"lastListing\":5}"),
            (.state, "{\"schema\":1,\"lastListing\":{\"command\":\"c\"}}"),
            (.preferences, "{\"schema\":1,\"historyEnabled\":\"yes\"}"),
            (.preferences, "{\"schema\":1,\"popularSections\":[1]}"),
            (.preferences, "{\"schema\":2}"),
        ]
        for (i, (suite, text)) in cases.enumerated() {
            let store = SettingsStore(directory: directory + "/\(i)")
            let path = store.path(of: suite)
            try write(text, to: path)
            expectStoreError(path, "\(i): \(text)") {
                _ = try store.read { settings in
                    suite == .state ? "\(settings.history)\(String(describing: settings.lastListing))"
                                    : "\(settings.historyEnabled)\(String(describing: settings.popularSections))"
                }
            }
            expectStoreError(path, "\(i): update") {
                try store.update([suite]) { settings in
                    if suite == .state { settings.history = [] } else { settings.historyEnabled = false }
                }
            }
            XCTAssertEqual(contents(path), Array(text.utf8), "\(i): unchanged")
        }
    }

    func testAFileIsWholeOrDamagedWhicheverKeyIsRead() throws {
        // lastListing is fine, history is not: reading the listing alone reports the damage too,
        // so `like 3` never takes a row from a file the last search could not update.
        let store = makeStore()
        let listing = LastListing(command: "search a", savedAt: "t", rows: [.init(row: "1", product: product("111"))])
        try store.update([.state]) { $0.lastListing = listing }
        let path = store.path(of: .state)
        let text = String(decoding: contents(path)!, as: UTF8.self).replacingOccurrences(of: "\"schema\":1", with: "\"schema\":1,\"history\":7")
        try write(text, to: path)
        expectStoreError(path, "read lastListing") { _ = try store.read { $0.lastListing } }
        expectStoreError(path, "update reading lastListing") { try store.update([.likes]) { _ = $0.lastListing } }
        XCTAssertEqual(contents(path), Array(text.utf8))
        // Other files are not involved.
        XCTAssertTrue(try store.read { $0.historyEnabled })
        XCTAssertTrue(try store.read { $0.likes.isEmpty })
    }

    func testDamageMetWhileReadingIsReportedRatherThanWhatTheBodyConcludedFromTheDefault() throws {
        // `like 3` with a damaged state.json: the getter hands back "no listing", the body then
        // throws a usage error; the damage is the real problem and is what the caller sees.
        let store = makeStore()
        let statePath = store.path(of: .state)
        try write("{\"schema\":1,\"lastListing\":", to: statePath)
        expectStoreError(statePath, "update") {
            try store.update([.likes]) { settings in
                guard settings.lastListing != nil else { throw BodyError("there is no listing yet") }
            }
        }
        expectStoreError(statePath, "read") {
            try store.read { settings in
                guard settings.lastListing != nil else { throw BodyError("there is no listing yet") }
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.path(of: .likes)))
        // Without damage the body's own error comes through.
        let clean = SettingsStore(directory: directory + "/clean")
        XCTAssertThrowsError(try clean.update([.likes]) { _ in throw BodyError("mine") }) { error in
            XCTAssertEqual(error as? BodyError, BodyError("mine"))
        }
    }

    func testALikeThatDoesNotDecodeIsDamageInLikesJSON() throws {
        let store = makeStore()
        let path = store.path(of: .likes)
        let text = "{\"schema\":1,\n\"likes\":[\n{\"productId\":\"111\",\"title\":\"ok\"},\n{\"productId\":\"222\",\"price\":\"cheap\"}\n]}\n"
        try write(text, to: path)
        // Every like is checked on load, types included: reading or changing the likes is
        // refused with the path, and the file stays as it was.
        let read = expectStoreError(path, "likes") { _ = try store.read { $0.likes.ids } }
        XCTAssertTrue(read?.message.contains("item 2") ?? false, read?.message ?? "")
        _ = expectStoreError(path, "allLikes") { _ = try store.read { try $0.allLikes() } }
        _ = expectStoreError(path, "update") {
            try store.update([.likes]) { settings in
                var likes = settings.likes
                likes.remove("222")
                settings.likes = likes
            }
        }
        XCTAssertEqual(String(decoding: try XCTUnwrap(FileIO.read(path)), as: UTF8.self), text)
    }

}

/// An error of the body's own (what `like 3` throws without a listing is a usage error).
private struct BodyError: Error, Equatable {
    let message: String
    init(_ message: String) { self.message = message }
}
