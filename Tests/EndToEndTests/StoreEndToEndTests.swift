// The built `shopy` and its files: likes, history, damaged files, doctor, export/import, and
// many processes at once or killed mid-write. Every test has its own SHOPY_HOME (created by shopy
// itself) and runs on the offline catalog: no keys are in the environment.

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

final class StoreEndToEndTests: XCTestCase {
    var root = ""
    /// SHOPY_HOME; it does not exist until shopy creates it.
    var home: String { root + "/home" }
    var likesPath: String { home + "/likes.json" }
    var statePath: String { home + "/state.json" }

    /// Distinct productIds of the recorded catalog, in fixture order.
    static let catalogIDs: [String] = {
        let url = fixturesDirectory.appendingPathComponent("recorded-items.json")
        guard let data = try? Data(contentsOf: url), let items = try? JSONParser.parse(Array(data)).arrayValue else { return [] }
        var seen = Set<String>()
        return items.compactMap { $0["productId"]?.stringValue }.filter { seen.insert($0).inserted }
    }()

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "shopy-store-e2e-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        XCTAssertGreaterThanOrEqual(Self.catalogIDs.count, 300, "the fixture's ids")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: root)
        super.tearDown()
    }

    // MARK: - Helpers

    @discardableResult
    func shopy(_ arguments: [String], home: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        try runShopy(arguments, home: home ?? self.home)
    }

    /// Runs and expects exit 0.
    @discardableResult
    func ok(_ arguments: [String], home: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let result = try runShopy(arguments, home: home ?? self.home)
        XCTAssertEqual(result.status, 0, "shopy \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    func json(_ result: RunResult, file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
        do {
            return try JSONParser.parse(result.stdout)
        } catch {
            XCTFail("not JSON (\(error)): \(result.stdout.prefix(500))", file: file, line: line)
            throw error
        }
    }

    /// `shopy likes --json` items.
    func likes(home: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> [JSONValue] {
        let envelope = try json(try ok(["likes", "--json"], home: home, file: file, line: line), file: file, line: line)
        let items = envelope["items"]?.arrayValue ?? []
        XCTAssertEqual(envelope["count"]?.intValue, items.count, file: file, line: line)
        return items
    }

    func likedIDs(home: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        try likes(home: home, file: file, line: line).compactMap { $0["productId"]?.stringValue }
    }

    /// Search items (with `liked`) as JSON.
    func search(_ query: String, size: Int = 5, home: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> [JSONValue] {
        let result = try ok(["search", query, "--size", String(size), "--format", "json"], home: home, file: file, line: line)
        return try json(result, file: file, line: line)["items"]?.arrayValue ?? []
    }

    func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    func names(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The stored likes: likes.json checked to be a whole snapshot, continued by the journal
    /// (read through the store, as every command reads them).
    func storedLikes(file: StaticString = #filePath, line: UInt = #line) throws -> [JSONValue] {
        let data = try XCTUnwrap(contents(likesPath), "likes.json exists", file: file, line: line)
        let value = try JSONParser.parse(Array(data))
        XCTAssertEqual(value["schema"]?.intValue, 2, file: file, line: line)
        XCTAssertNotNil(value["likes"]?.arrayValue, "a likes list", file: file, line: line)
        return try SettingsStore(directory: home).read { try $0.allLikes() }.map(\.json)
    }

    /// A `shopy` process started and not waited for; output is discarded except stderr.
    func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path("shopy"))
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SHOPY_HOME": home]
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, err)
    }

    static let timestampPattern = try! NSRegularExpression(pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$")

    func isTimestamp(_ text: String?) -> Bool {
        guard let text else { return false }
        return Self.timestampPattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    // MARK: - Like by row, snapshots, marks in search

    func testLikeRowsKeepsSnapshotsAndSearchMarksThem() throws {
        let listed = try search("방충망")
        XCTAssertEqual(listed.count, 5)
        XCTAssertEqual(listed.map { $0["liked"] }, Array(repeating: .bool(false), count: 5), "nothing liked yet, and said so")
        let ids = listed.compactMap { $0["productId"]?.stringValue }

        let liked = try ok(["like", "1", "3"])
        XCTAssertEqual(liked.stderrLines.count, 2, liked.stderr)
        XCTAssertTrue(liked.stderrLines[0].hasPrefix("shopy: liked: \(ids[0])"), liked.stderr)
        XCTAssertTrue(liked.stderrLines[1].hasPrefix("shopy: liked: \(ids[2])"), liked.stderr)

        let items = try likes()
        XCTAssertEqual(Set(items.compactMap { $0["productId"]?.stringValue }), [ids[0], ids[2]])
        for item in items {
            let id = try XCTUnwrap(item["productId"]?.stringValue)
            let source = try XCTUnwrap(listed.first { $0["productId"]?.stringValue == id })
            for key in ["title", "price", "highPrice", "mall", "brand", "maker", "categories", "productType", "link", "image"] {
                XCTAssertEqual(item[key], source[key], "snapshot of \(id): \(key)")
            }
            XCTAssertTrue(isTimestamp(item["likedAt"]?.stringValue), "likedAt: \(String(describing: item["likedAt"]))")
            XCTAssertEqual(item["likedPrice"], source["price"], "likedPrice is the price when liked")
        }
        // The stored file is whole, private, and holds the same.
        XCTAssertEqual(try storedLikes().count, 2)

        // Other formats list them too.
        let tsv = try ok(["likes"])
        XCTAssertEqual(tsv.stdoutLines.count, 2)
        XCTAssertEqual(Set(tsv.stdoutLines.map { String($0.split(separator: "\t")[1]) }), [ids[0], ids[2]])
        let table = try ok(["likes", "--format", "table"])
        XCTAssertTrue(table.stdout.contains(ids[0]) && table.stdout.contains(ids[2]), "the table shows ids: \(table.stdout)")
        XCTAssertTrue(table.stdoutLines.last?.hasPrefix("2 likes") ?? false, table.stdout)
        XCTAssertEqual(try ok(["likes", "--format", "jsonl"]).stdoutLines.count, 2)
        XCTAssertEqual(try ok(["likes", "--format", "csv"]).stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count, 3)
        let prices = try json(try ok(["likes", "--sort", "price", "--json"]))["items"]?.arrayValue?.compactMap { $0["price"]?.intValue } ?? []
        XCTAssertEqual(prices, prices.sorted(), "--sort price: lowest first")
        XCTAssertEqual(prices.count, 2)
        XCTAssertEqual(try json(try ok(["likes", "--sort", "title", "--json"]))["sort"], .string("title"))
        assertErrorReport(try shopy(["likes", "--sort", "cheapest"]), status: 64, contains: ["sort"])

        // Search marks them: json, jsonl and the table's ♥ column.
        let again = try search("방충망")
        XCTAssertEqual(again.map { $0["liked"] }, [.bool(true), .bool(false), .bool(true), .bool(false), .bool(false)])
        let jsonl = try ok(["search", "방충망", "--size", "5", "--format", "jsonl"]).stdoutLines.map { try JSONParser.parse($0) }
        XCTAssertEqual(jsonl.map { $0["liked"] }, [.bool(true), .bool(false), .bool(true), .bool(false), .bool(false)])
        let rows = try ok(["search", "방충망", "--size", "5", "--format", "table"]).stdoutLines
        XCTAssertTrue(rows[0].contains("♥"), "header: \(rows[0])")
        XCTAssertEqual(rows[1...5].map { $0.contains("♥") }, [true, false, true, false, false], rows.joined(separator: "\n"))

        // Liking again changes nothing, and is no error.
        let before = contents(likesPath)
        let twice = try ok(["like", "1"])
        XCTAssertTrue(twice.stderr.hasPrefix("shopy: already liked: \(ids[0])"), twice.stdout)
        XCTAssertEqual(contents(likesPath), before, "not rewritten")

        // Unlike by row and by id; unliking again is no error.
        XCTAssertTrue(try ok(["unlike", "3"]).stderr.hasPrefix("shopy: unliked: \(ids[2])"))
        XCTAssertTrue(try ok(["unlike", "3"]).stderr.hasPrefix("shopy: not liked: \(ids[2])"))
        XCTAssertEqual(try likedIDs(), [ids[0]])
        XCTAssertTrue(try ok(["unlike", "--id", ids[0]]).stderr.hasPrefix("shopy: unliked: \(ids[0])"))
        XCTAssertEqual(try likedIDs(), [])
        XCTAssertTrue(try ok(["unlike", "--id", "99999999999"]).stderr.hasPrefix("shopy: not liked: 99999999999"))
        XCTAssertEqual(try search("방충망").map { $0["liked"] }, Array(repeating: .bool(false), count: 5))
    }

    // MARK: - Like by id, and what is refused

    func testLikeByIdAndWhatIsRefused() throws {
        // No listing yet: a row means nothing.
        assertErrorReport(try shopy(["like", "1"]), status: 64, contains: ["listing"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: likesPath))
        assertErrorReport(try shopy(["unlike", "2"]), status: 64, contains: ["listing"])
        assertErrorReport(try shopy(["like"]), status: 64)

        let listed = try search("방충망").compactMap { $0["productId"]?.stringValue }
        // A catalog item that is not in the listing, by id.
        let other = try XCTUnwrap(Self.catalogIDs.first { !listed.contains($0) })
        let byID = try ok(["like", other])
        XCTAssertTrue(byID.stderr.hasPrefix("shopy: liked: \(other)"), byID.stdout)
        let snapshot = try XCTUnwrap(try likes().first)
        XCTAssertEqual(snapshot["productId"]?.stringValue, other)
        XCTAssertFalse(snapshot["title"]?.stringValue?.isEmpty ?? true, "the snapshot comes from the catalog")
        // 'shopy likes' (in likes()) is a listing of its own: the search's rows again.
        XCTAssertEqual(try search("방충망").compactMap { $0["productId"]?.stringValue }, listed)
        // A short id needs --id; without it, it is a row.
        assertErrorReport(try shopy(["like", "1234"]), status: 64, contains: ["row 1234", "search 방충망"])
        assertErrorReport(try shopy(["like", "--id", "1234"]), status: 64, contains: ["1234"])

        let before = try XCTUnwrap(contents(likesPath))
        // An unknown id.
        assertErrorReport(try shopy(["like", "99999999999"]), status: 64, contains: ["99999999999"])
        // A row past the listing: the message names the listing and its rows.
        assertErrorReport(try shopy(["like", "6"]), status: 64, contains: ["row 6", "search 방충망", "1–5"])
        // All or nothing: a good row with a bad one changes nothing.
        assertErrorReport(try shopy(["like", "1", "99999999999"]), status: 64)
        assertErrorReport(try shopy(["like", "1", "7"]), status: 64)
        XCTAssertEqual(contents(likesPath), before, "nothing written")
        XCTAssertEqual(try likedIDs(), [other])
        XCTAssertEqual(names(in: home).filter { $0.contains(".tmp-") }, [])
    }

    // MARK: - Many processes at once

    func testThirtyTwoConcurrentLikesAllLand() throws {
        try ok(["history", "--off"])  // creates the directory, so all 32 start on equal terms
        let ids = Array(Self.catalogIDs.prefix(32))
        XCTAssertEqual(Set(ids).count, 32)
        var running: [(Process, Pipe)] = []
        for id in ids { running.append(try start(["like", "--id", id])) }
        for (process, err) in running {
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, stderr)
        }
        let stored = try storedLikes()
        XCTAssertEqual(stored.count, 32)
        XCTAssertEqual(Set(stored.compactMap { $0["productId"]?.stringValue }), Set(ids))
        XCTAssertEqual(names(in: home).filter { $0.contains(".tmp-") }, [], "no temporary file left")
        let doctor = try ok(["doctor"])
        for name in ["likes.json", "state.json", "preferences.json"] {
            XCTAssertTrue(doctor.stdout.contains(name), "doctor reports every file: \(doctor.stdout)")
        }
        XCTAssertTrue(doctor.stdout.contains("32 likes"), doctor.stdout)
        let report = try json(try ok(["doctor", "--json"]))
        XCTAssertEqual(report["files"]?.arrayValue?.compactMap { file in file["name"]?.stringValue.map { "\($0) \(file["status"]?.stringValue ?? "?")" } },
                       ["likes.json ok", "likes.journal ok", "likes.index ok", "state.json missing", "preferences.json ok", "prices.json missing",
                        "coupang.json missing"],
                       "no search was made, no like refreshed")
        // After doctor: 'shopy likes' saves its rows in state.json.
        XCTAssertEqual(Set(try likedIDs()), Set(ids))
    }

    // MARK: - Killed mid-write

    func testProcessesKilledAtRandomNeverLeaveAPartialFile() throws {
        // Start with some likes, so that writes take a little longer.
        let ids = Array(Self.catalogIDs.prefix(60))
        try ok(["like", "--id"] + Array(ids[20...]))
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        for iteration in 0..<48 {
            let batch = Array(ids[(iteration % 4 * 5)..<(iteration % 4 * 5 + 5)])
            let verb = iteration % 3 == 2 ? "unlike" : "like"
            let (process, _) = try start([verb, "--id"] + batch)
            killAfter(process, seconds: Double.random(in: 0...0.04, using: &generator))
            if process.terminationReason == .uncaughtSignal { killed += 1 }

            if let data = contents(likesPath) {
                let value: JSONValue
                do {
                    value = try JSONParser.parse(Array(data))
                } catch {
                    XCTFail("iteration \(iteration): likes.json does not parse (\(error)): \(String(decoding: data, as: UTF8.self).suffix(200))")
                    break
                }
                XCTAssertEqual(value["schema"]?.intValue, 2, "iteration \(iteration)")
                XCTAssertNotNil(value["likes"]?.arrayValue, "iteration \(iteration)")
            }
            let listing = try shopy(["likes", "--json"])
            XCTAssertEqual(listing.status, 0, "iteration \(iteration): \(listing.stderr)")
            if listing.status != 0 { break }
        }
        XCTAssertGreaterThan(killed, 0, "some processes were killed before they finished")
        XCTAssertTrue(Set(ids[20...]).isSubset(of: Set(try likedIDs())), "likes nobody touched are all still there")

        // A temporary file of a process that is gone, as a kill mid-write leaves one.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let stale = home + "/.likes.json.tmp-\(gone.processIdentifier)-12345"
        try write("{\"schema\":1,\"li", to: stale)

        let doctor = try ok(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("temporary file"), "stale temporary files are reported: \(doctor.stdout)")
        XCTAssertTrue(doctor.stdout.contains("likes.json") && doctor.stdout.contains("ok"), doctor.stdout)
        let repair = try ok(["doctor", "--repair"])
        XCTAssertTrue(repair.stdout.contains("removed .likes.json.tmp-\(gone.processIdentifier)-12345"), repair.stdout)
        XCTAssertEqual(names(in: home).filter { $0.contains(".tmp-") }, [], "doctor --repair removed them")
        XCTAssertFalse(try ok(["doctor"]).stdout.contains("temporary file"))
    }

    // MARK: - Permissions

    func testFilesAre0600AndTheDirectory0700UnderUmask022() throws {
        let old = umask(0o022)
        defer { umask(old) }
        _ = try search("방충망")  // creates the directory and state.json
        let ids = Array(Self.catalogIDs.prefix(10))
        for i in 0..<50 {
            try ok([i % 2 == 0 ? "like" : "unlike", "--id", ids[(i / 2) % ids.count]])
        }
        try ok(["like", "1", "2"])
        try ok(["history", "--off"])
        XCTAssertEqual(FileIO.mode(of: home), 0o700)
        XCTAssertEqual(FileIO.mode(of: likesPath), 0o600)
        XCTAssertEqual(FileIO.mode(of: statePath), 0o600)
        XCTAssertEqual(FileIO.mode(of: home + "/preferences.json"), 0o600)

        // Files shopy writes elsewhere are private too: an export and the backup of clear.
        try ok(["likes", "export", root + "/export.json"])
        XCTAssertEqual(FileIO.mode(of: root + "/export.json"), 0o600)
        let cleared = try ok(["likes", "clear", "--yes"])
        let backup = try XCTUnwrap(names(in: home).first { $0.hasPrefix("likes-backup-") }, cleared.stdout)
        XCTAssertEqual(FileIO.mode(of: home + "/" + backup), 0o600)

        // doctor reports the modes, and --repair puts them back.
        XCTAssertEqual(chmod(likesPath, 0o644), 0)
        XCTAssertEqual(chmod(home, 0o755), 0)
        let doctor = try ok(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("0644"), doctor.stdout)
        try ok(["doctor", "--repair"])
        XCTAssertEqual(FileIO.mode(of: likesPath), 0o600)
        XCTAssertEqual(FileIO.mode(of: home), 0o700)
    }

}

/// Output that cannot be written, and exports to links and devices.
final class OutputEndToEndTests: XCTestCase {
    func testAnUnwritableStdoutIs74() throws {
        let home = TestHome()
        defer { home.remove() }
        let result = try runProcess("/bin/sh", ["-c", "exec \"$0\" search 방충망 > /dev/full", Binary.path("shopy")], home: home.path)
        XCTAssertEqual(result.status, 74, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot write to standard output"), result.stderr)
    }

    func testExportFollowsSymlinksAndWritesToDevices() throws {
        let home = TestHome()
        defer { home.remove() }
        XCTAssertEqual(try runShopy(["search", "방충망"], home: home.path).status, 0)
        XCTAssertEqual(try runShopy(["like", "1", "2"], home: home.path).status, 0)
        let real = home.path + "/real.json", link = home.path + "/link.json"
        _ = FileManager.default.createFile(atPath: real, contents: Data())
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        XCTAssertEqual(try runShopy(["likes", "export", link], home: home.path).status, 0)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), real, "the link stays a link")
        XCTAssertEqual(try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: real))))["likes"]?.arrayValue?.count, 2)
        let toStdout = try runShopy(["likes", "export", "/dev/stdout"], home: home.path)
        XCTAssertEqual(toStdout.status, 0, toStdout.stderr)
        XCTAssertEqual(try JSONParser.parse(toStdout.stdout)["likes"]?.arrayValue?.count, 2)
        assertErrorReport(try runShopy(["likes", "export", home.path], home: home.path), status: 74, contains: ["directory"])
        // A dangling link: the file it names is created, and the link stays.
        let dangling = home.path + "/dangling.json"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "made.json")
        XCTAssertEqual(try runShopy(["likes", "export", dangling], home: home.path).status, 0)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dangling), "made.json")
        XCTAssertEqual(try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: home.path + "/made.json"))))["likes"]?.arrayValue?.count, 2)
    }

    func testDoctorFlagsAnOpenDirectoryAndRepairCloses() throws {
        let home = TestHome()
        defer { home.remove() }
        XCTAssertEqual(try runShopy(["search", "방충망"], home: home.path).status, 0)
        XCTAssertEqual(chmod(home.path, 0o755), 0)
        let doctor = try runShopy(["doctor"], home: home.path)
        XCTAssertEqual(doctor.status, 0)
        XCTAssertTrue(doctor.stdout.contains("directory permissions 0755, expected 0700"), doctor.stdout)
        XCTAssertEqual(FileIO.mode(of: home.path), 0o755, "doctor alone changes nothing")
        XCTAssertEqual(try runShopy(["doctor", "--repair"], home: home.path).status, 0)
        XCTAssertEqual(FileIO.mode(of: home.path), 0o700)
    }

    func testWatchEndsWhenItsReaderGoesAway() throws {
        // No change comes: ended at all (runProcess throws after 10 s), it ended when head did.
        let result = try runProcess("/bin/sh", ["-c", "\"$0\" status --watch --no-probe --format jsonl | head -1", Binary.path("shopy")], timeout: 10)
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stdoutLines.count, 1)
    }
}
