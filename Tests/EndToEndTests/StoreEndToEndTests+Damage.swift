// The store end to end (continued): damaged files; export, clear and import; the history.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

extension StoreEndToEndTests {
    // MARK: - Damaged files

    func testDamagedLikesFileIsRefusedUntouchedThenRepaired() throws {
        let cases: [(String, String, String)] = [
            ("empty", "", "empty"),
            ("truncated", "{\"schema\":1,\n\"likes\":[\n{\"productId\":\"11124150101\",\"title\":\"방충", "truncated"),
            ("garbage", "this is not json\n", "not a JSON object"),
            ("schema 3", "{\"schema\":3,\"likes\":[]}\n", "schema version 3"),
        ]
        for (name, text, problem) in cases {
            let home = root + "/" + name.replacingOccurrences(of: " ", with: "-")
            let path = home + "/likes.json"
            let listed = try search("방충망", home: home).compactMap { $0["productId"]?.stringValue }
            try write(text, to: path)
            let damaged = try XCTUnwrap(contents(path))
            try write("{\"schema\":1,\"likes\":[{\"productId\":\"\(listed[1])\",\"title\":\"x\"}]}", to: root + "/import.json")

            for arguments in [["like", "1"], ["like", "--id", listed[1]], ["unlike", "1"], ["likes"], ["likes", "--json"],
                              ["likes", "export"], ["likes", "clear", "--yes"], ["likes", "import", root + "/import.json"]] {
                let result = try shopy(arguments, home: home)
                assertErrorReport(result, status: 65, contains: [path, problem])
                XCTAssertEqual(result.stdout, "", "\(name): \(arguments)")
                XCTAssertEqual(contents(path), damaged, "\(name): \(arguments) left the file byte for byte")
            }
            // A search still prints, with a warning, and marks nothing.
            let searched = try shopy(["search", "방충망", "--size", "3", "--format", "json"], home: home)
            XCTAssertEqual(searched.status, 0, searched.stderr)
            XCTAssertEqual(try json(searched)["items"]?.arrayValue?.count, 3)
            XCTAssertTrue(searched.stderr.contains("warning") && searched.stderr.contains(path), searched.stderr)
            XCTAssertEqual(contents(path), damaged)

            let doctor = try shopy(["doctor"], home: home)
            XCTAssertEqual(doctor.status, 65, "\(name): \(doctor.stdout)")
            XCTAssertTrue(doctor.stdout.contains("likes.json") && doctor.stdout.contains(problem), "\(name): \(doctor.stdout)")
            XCTAssertTrue(doctor.stdout.contains("--repair"), doctor.stdout)
            XCTAssertEqual(contents(path), damaged, "doctor without --repair changes nothing")

            let repair = try ok(["doctor", "--repair"], home: home)
            XCTAssertTrue(repair.stdout.contains("moved aside"), repair.stdout)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path))
            let aside = names(in: home).filter { $0.hasPrefix("likes.damaged-") && $0.hasSuffix(".json") }
            XCTAssertEqual(aside.count, 1, "\(name): \(names(in: home))")
            XCTAssertEqual(contents(home + "/" + (aside.first ?? "")), damaged, "the damaged bytes are kept")
            XCTAssertTrue(repair.stdout.contains(aside.first ?? "?"), "says where: \(repair.stdout)")

            XCTAssertTrue(try ok(["like", "1"], home: home).stderr.hasPrefix("shopy: liked: \(listed[0])"))
            XCTAssertEqual(try likedIDs(home: home), [listed[0]])
            XCTAssertEqual(try ok(["doctor"], home: home).status, 0)
        }
    }

    func testALikeThatDoesNotDecodeIsDamageForEveryCommand() throws {
        let listed = try search("방충망").compactMap { $0["productId"]?.stringValue }
        try ok(["like", "1", "2"])
        let text = String(decoding: try XCTUnwrap(contents(likesPath)), as: UTF8.self)
        let range = try XCTUnwrap(text.range(of: "\"productId\":\"\(listed[1])\",\"title\":"))
        try write(text.replacingCharacters(in: range, with: "\"productId\":\"\(listed[1])\",\"title\":7,\"x\":"), to: likesPath)
        let damaged = contents(likesPath)

        // Checked on load, so no command carries the bad like along or backs it up unrestorably.
        for arguments in [["likes"], ["likes", "--json"], ["unlike", "2"], ["like", "3"], ["likes", "export"], ["likes", "clear", "--yes"]] {
            assertErrorReport(try shopy(arguments), status: 65, contains: [likesPath, "item 2"])
            XCTAssertEqual(contents(likesPath), damaged, "\(arguments) left the file as it was")
        }
        let doctor = try shopy(["doctor"])
        XCTAssertEqual(doctor.status, 65)
        XCTAssertTrue(doctor.stdout.contains("item 2"), doctor.stdout)
        XCTAssertEqual(contents(likesPath), damaged)
    }

    func testDamagedStateFileDoesNotStopSearchButStopsLikeByRow() throws {
        _ = try search("방충망")
        try write("{\"schema\":1,\n\"lastListing\":{\"command\":\"search", to: statePath)
        let damaged = try XCTUnwrap(contents(statePath))

        let searched = try shopy(["search", "방충망", "--size", "3"])
        XCTAssertEqual(searched.status, 0, searched.stderr)
        XCTAssertEqual(searched.stdoutLines.count, 3, "results are printed")
        XCTAssertTrue(searched.stderr.contains("warning") && searched.stderr.contains(statePath), searched.stderr)
        XCTAssertEqual(contents(statePath), damaged)

        // The damage is the problem, not "no listing yet".
        assertErrorReport(try shopy(["like", "1"]), status: 65, contains: [statePath])
        assertErrorReport(try shopy(["history"]), status: 65, contains: [statePath])
        assertErrorReport(try shopy(["history", "--clear"]), status: 65, contains: [statePath])
        XCTAssertEqual(contents(statePath), damaged)
        XCTAssertFalse(FileManager.default.fileExists(atPath: likesPath), "nothing liked")

        // A state.json that parses but holds a bad value is damaged as well, and left as it is.
        try write("{\"schema\":1,\n\"lastListing\":5,\n\"history\":[]}\n", to: statePath)
        let badValue = contents(statePath)
        XCTAssertEqual(try shopy(["search", "방충망"]).status, 0)
        assertErrorReport(try shopy(["history", "--remove", "방충망"]), status: 65, contains: [statePath, "lastListing"])
        XCTAssertEqual(contents(statePath), badValue)

        // A good listing beside a damaged history: the search cannot save its rows, and `like 1`
        // does not take row 1 of the listing before it.
        try FileManager.default.removeItem(atPath: statePath)
        _ = try search("방충망")
        let text = String(decoding: try XCTUnwrap(contents(statePath)), as: UTF8.self)
        let range = try XCTUnwrap(text.range(of: "\"history\":["))
        try write(text.replacingCharacters(in: range, with: "\"history\":{},\"x\":["), to: statePath)
        let badHistory = contents(statePath)
        let other = try shopy(["search", "세제"])
        XCTAssertEqual(other.status, 0)
        XCTAssertTrue(other.stderr.contains("warning") && other.stderr.contains("history"), other.stderr)
        assertErrorReport(try shopy(["like", "1"]), status: 65, contains: [statePath, "history"])
        XCTAssertEqual(contents(statePath), badHistory)
        XCTAssertFalse(FileManager.default.fileExists(atPath: likesPath), "nothing liked")

        XCTAssertEqual(try shopy(["doctor"]).status, 65)
        try ok(["doctor", "--repair"])
        XCTAssertEqual(names(in: home).filter { $0.hasPrefix("state.damaged-") }.count, 1, "\(names(in: home))")
        _ = try search("방충망")
        try ok(["like", "1"])
        XCTAssertEqual(try likedIDs().count, 1)
    }

    func testDamagedPreferencesDoNotKeepTheListingFromBeingSaved() throws {
        let first = try XCTUnwrap(try search("방충망").first?["productId"]?.stringValue)
        let preferences = home + "/preferences.json"
        try write("{\"schema\":1,\"historyEnabled\":", to: preferences)
        let damaged = contents(preferences)

        let searched = try shopy(["search", "세제", "--size", "3", "--format", "json"])
        XCTAssertEqual(searched.status, 0, searched.stderr)
        XCTAssertTrue(searched.stderr.contains("warning") && searched.stderr.contains(preferences), searched.stderr)
        let listed = try json(searched)["items"]?.arrayValue?.compactMap { $0["productId"]?.stringValue } ?? []
        XCTAssertEqual(listed.count, 3)
        XCTAssertNotEqual(listed[0], first, "the two listings start differently, or this test proves nothing")
        // Row 1 is row 1 of this listing, not of the one before.
        // (stderr starts with the damaged preferences' warning; the like's line is a notice after it)
        XCTAssertTrue(try ok(["like", "1"]).stderr.contains("shopy: liked: \(listed[0])"))
        XCTAssertEqual(contents(preferences), damaged)
        assertErrorReport(try shopy(["history", "--off"]), status: 65, contains: [preferences])
        XCTAssertEqual(contents(preferences), damaged)
    }

    // MARK: - Export, clear, import

    func testExportClearAndImportRoundTrip() throws {
        _ = try search("방충망")
        try ok(["like", "1", "2", "3"])
        let original = try likes()
        XCTAssertEqual(original.count, 3)

        let exportPath = root + "/export.json"
        let exported = try ok(["likes", "export", exportPath])
        XCTAssertTrue(exported.stderr.contains("exported 3 likes"), exported.stderr)
        let export = try JSONParser.parse(Array(try XCTUnwrap(contents(exportPath))))
        XCTAssertEqual(export["schema"]?.intValue, 1)
        XCTAssertTrue(isTimestamp(export["exportedAt"]?.stringValue))
        XCTAssertEqual(export["likes"]?.arrayValue?.count, 3)
        let toStdout = try JSONParser.parse(try ok(["likes", "export"]).stdout)
        XCTAssertEqual(toStdout["likes"], export["likes"], "stdout and file hold the same likes")

        // clear without --yes: refused, nothing removed.
        let before = contents(likesPath)
        assertErrorReport(try shopy(["likes", "clear"]), status: 64, contains: ["--yes"])
        XCTAssertEqual(contents(likesPath), before)
        XCTAssertEqual(names(in: home).filter { $0.hasPrefix("likes-backup-") }, [])

        // clear --yes: a backup, and it says where.
        let cleared = try ok(["likes", "clear", "--yes"])
        let backupLine = try XCTUnwrap(cleared.stderrLines.first { $0.contains("backup: ") }, cleared.stderr)
        let backupPath = String(try XCTUnwrap(backupLine.components(separatedBy: "backup: ").last))
        XCTAssertTrue(backupPath.hasPrefix(home + "/likes-backup-"), backupPath)
        let backup = try JSONParser.parse(Array(try XCTUnwrap(contents(backupPath), "the backup exists")))
        XCTAssertEqual(backup["likes"]?.arrayValue?.compactMap { $0["productId"]?.stringValue },
                       export["likes"]?.arrayValue?.compactMap { $0["productId"]?.stringValue })
        XCTAssertEqual(try likes(), [])
        XCTAssertEqual(try storedLikes(), [], "an empty list, not a missing file")
        XCTAssertTrue(try ok(["likes", "clear", "--yes"]).stderr.contains("no likes"))

        // Import twice: the second adds nothing, and the likes are the same as after one.
        let first = try ok(["likes", "import", exportPath])
        XCTAssertTrue(first.stderr.contains("3 added, 0 kept"), first.stderr)
        let afterOne = try ok(["likes", "--json"]).stdout
        let bytesAfterOne = contents(likesPath)
        let second = try ok(["likes", "import", exportPath])
        XCTAssertTrue(second.stderr.contains("0 added, 3 kept"), second.stderr)
        XCTAssertEqual(try ok(["likes", "--json"]).stdout, afterOne)
        XCTAssertEqual(contents(likesPath), bytesAfterOne, "the second import writes nothing")
        XCTAssertEqual(try likes(), original, "likedAt and likedPrice came back as they were")

        // The backup imports too.
        try ok(["likes", "clear", "--yes"])
        XCTAssertTrue(try ok(["likes", "import", backupPath]).stderr.contains("3 added"))
        XCTAssertEqual(try likes(), original)
    }

    func testImportKeepsAnExistingLikeAsItIs() throws {
        let listed = try search("방충망").compactMap { $0["productId"]?.stringValue }
        try ok(["like", "1"])
        let existing = try XCTUnwrap(try likes().first)
        let incoming = """
        {"schema":1,"likes":[
          {"productId":"\(listed[0])","title":"renamed","price":1,"likedAt":"2001-01-01T00:00:00Z","likedPrice":1},
          {"title":"new one","productId":"77777777777","price":5000,"likedAt":"2002-02-02T02:02:02Z","likedPrice":4000},
          {"productId":"88888888888","title":"no time"}
        ]}
        """
        try write(incoming, to: root + "/in.json")
        let result = try ok(["likes", "import", root + "/in.json"])
        XCTAssertTrue(result.stderr.contains("2 added, 1 kept"), result.stderr)
        let items = try likes()
        XCTAssertEqual(items.count, 3)
        // The rank is the like's place in this listing (newest first); everything else is kept.
        func withoutRank(_ item: JSONValue?) -> JSONValue? {
            guard var object = item?.objectValue else { return nil }
            object["rank"] = nil
            return .object(object)
        }
        XCTAssertEqual(withoutRank(items.first { $0["productId"]?.stringValue == listed[0] }), withoutRank(existing),
                       "the existing like keeps its likedAt and snapshot")
        let added = try XCTUnwrap(items.first { $0["productId"]?.stringValue == "77777777777" })
        XCTAssertEqual(added["likedAt"], .string("2002-02-02T02:02:02Z"))
        XCTAssertEqual(added["likedPrice"]?.intValue, 4000)
        XCTAssertEqual(added["title"], .string("new one"))
        let untimed = try XCTUnwrap(items.first { $0["productId"]?.stringValue == "88888888888" })
        XCTAssertTrue(isTimestamp(untimed["likedAt"]?.stringValue), "a like without likedAt gets the import's time")

        // A bare array of likes imports as well.
        try write("[{\"productId\":\"99999999990\",\"title\":\"bare\"}]", to: root + "/bare.json")
        XCTAssertTrue(try ok(["likes", "import", root + "/bare.json"]).stderr.contains("1 added, 0 kept"))
    }

    func testMalformedImportsChangeNothing() throws {
        _ = try search("방충망")
        try ok(["like", "1", "2"])
        let before = try XCTUnwrap(contents(likesPath))
        let files: [(String, String, String)] = [
            ("not-json", "likes, but not JSON", "not valid JSON"),
            ("empty", "", "empty"),
            ("no-id", "{\"schema\":1,\"likes\":[{\"productId\":\"55555555555\",\"title\":\"fine\"},{\"title\":\"no id\"}]}", "like 2"),
            ("numeric-id", "{\"schema\":1,\"likes\":[{\"productId\":55555555555}]}", "productId"),
            ("schema-2", "{\"schema\":2,\"likes\":[{\"productId\":\"55555555555\"}]}", "schema version 2"),
            ("no-likes", "{\"schema\":1}", "likes"),
            ("a-string", "\"55555555555\"", "not a likes export"),
        ]
        for (name, text, problem) in files {
            let path = root + "/\(name).json"
            try write(text, to: path)
            assertErrorReport(try shopy(["likes", "import", path]), status: 65, contains: [name, problem])
            XCTAssertEqual(contents(likesPath), before, "\(name): likes.json unchanged")
        }
        XCTAssertEqual(try likedIDs().count, 2)
        XCTAssertEqual(names(in: home).filter { $0.contains(".tmp-") }, [])
    }

    func testClearWithoutYesRemovesNothing() throws {
        _ = try search("방충망")
        try ok(["like", "1"])
        let before = contents(likesPath)
        let result = try shopy(["likes", "clear"])
        assertErrorReport(result, status: 64, contains: ["--yes"])
        XCTAssertEqual(result.stdout, "")
        XCTAssertEqual(contents(likesPath), before)
        XCTAssertEqual(try likes().count, 1)
        XCTAssertEqual(names(in: home).filter { $0.hasPrefix("likes-backup-") }, [])
    }

    // MARK: - History

    func history(file: StaticString = #filePath, line: UInt = #line) throws -> (queries: [String], recording: Bool?) {
        let value = try json(try ok(["history", "--json"], file: file, line: line), file: file, line: line)
        return ((value["items"]?.arrayValue ?? []).compactMap { $0["query"]?.stringValue }, value["recording"]?.boolValue)
    }

    func testHistoryRecordsRemovesAndCanBeTurnedOff() throws {
        XCTAssertEqual(try history().queries, [])
        XCTAssertEqual(try ok(["history"]).stdout, "", "tsv: nothing")
        for query in ["방충망", "모기장", "방충망"] { _ = try search(query) }
        XCTAssertEqual(try history().queries, ["방충망", "모기장"], "most recent first, once each")
        XCTAssertEqual(try ok(["history"]).stdoutLines.map { $0.split(separator: "\t").last.map(String.init) }, ["방충망", "모기장"])
        XCTAssertTrue(try ok(["history", "--format", "table"]).stdout.contains("모기장"))

        XCTAssertTrue(try ok(["history", "--remove", "모기장"]).stdout.contains("removed '모기장'"))
        XCTAssertEqual(try history().queries, ["방충망"])
        XCTAssertTrue(try ok(["history", "--remove", "텐트"]).stdout.contains("not in the history"))

        XCTAssertTrue(try ok(["history", "--off"]).stdout.contains("not recording"))
        let listed = try search("텐트")
        XCTAssertEqual(try history().queries, ["방충망"], "not recorded while off")
        XCTAssertEqual(try history().recording, false)
        // The listing is still kept: rows can be liked.
        XCTAssertTrue(try ok(["like", "1"]).stderr.hasPrefix("shopy: liked: \(listed.first?["productId"]?.stringValue ?? "?")"))

        try ok(["history", "--on"])
        _ = try search("텐트")
        XCTAssertEqual(try history().queries, ["텐트", "방충망"])
        XCTAssertEqual(try history().recording, true)

        XCTAssertTrue(try ok(["history", "--clear"]).stdout.contains("removed 2 entries"))
        XCTAssertEqual(try history().queries, [])
        assertErrorReport(try shopy(["history", "--on", "--off"]), status: 64)
        assertErrorReport(try shopy(["history", "방충망"]), status: 64)
    }

    func testHistoryKeepsTheLatestHundred() async throws {
        // 105 searches in process (fast), read back by the binary.
        for i in 1...105 {
            let io = IO.capture(environment: ["SHOPY_HOME": home])
            let code = await ShopY.main(["search", "query \(i)", "--size", "1"], io: io)
            XCTAssertEqual(code, 0, io.stderr.text)
        }
        var queries = try history().queries
        XCTAssertEqual(queries.count, 100)
        XCTAssertEqual(queries.first, "query 105")
        XCTAssertEqual(queries.last, "query 6")
        XCTAssertEqual(Set(queries).count, 100)

        // An old one searched again moves to the front; the count stays.
        _ = try search("query 50")
        queries = try history().queries
        XCTAssertEqual(queries.count, 100)
        XCTAssertEqual(queries.first, "query 50")
        XCTAssertEqual(queries.last, "query 6")
    }
}
