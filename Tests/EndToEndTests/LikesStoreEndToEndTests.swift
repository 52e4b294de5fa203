// The built `shopy` and the likes' snapshot, journal and index (issue 11), and store files that
// are FIFOs or symbolic links (issue 8, items 6 and 7). Every test has its own SHOPY_HOME and runs
// on the offline catalog.
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
@testable import ShopYCatalog

final class LikesStoreEndToEndTests: XCTestCase {
    private var root = ""
    private var home: String { root + "/home" }
    private var likesPath: String { home + "/likes.json" }
    private static let catalogIDs: [String] = {
        var seen = Set<String>()
        return Catalog.embedded.items.map(\.productId).filter { seen.insert($0).inserted }
    }()

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "shopy-likes-e2e-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: root)
        super.tearDown()
    }

    private func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @discardableResult
    private func ok(_ arguments: [String], home: String? = nil, environment: [String: String] = [:],
                    file: StaticString = #filePath, line: UInt = #line) throws -> RunResult {
        let result = try runShopy(arguments, environment: environment, home: home ?? self.home, timeout: 30)
        XCTAssertEqual(result.status, 0, "shopy \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    private func likedIDs(home: String? = nil, environment: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let result = try ok(["likes", "--json"], home: home, environment: environment, file: file, line: line)
        return try JSONParser.parse(result.stdout)["items"]?.arrayValue?.compactMap { $0["productId"]?.stringValue } ?? []
    }

    /// likes.json parses; every complete line of the journal is JSON (a torn last line may not be).
    private func assertFilesParse(_ home: String, _ context: String, file: StaticString = #filePath, line: UInt = #line) {
        if let data = contents(home + "/likes.json") {
            XCTAssertNoThrow(try JSONParser.parse(Array(data)), "\(context): likes.json parses", file: file, line: line)
        }
        if let data = contents(home + "/likes.journal") {
            let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
            for (i, text) in lines.dropLast().enumerated() {
                XCTAssertNoThrow(try JSONParser.parse(Array(text)), "\(context): journal line \(i + 1) parses", file: file, line: line)
            }
        }
    }

    private func start(_ arguments: [String], home: String, environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.path("shopy"))
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SHOPY_HOME": home].merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// likes.json as shopy wrote it until now (schema 1), with `count` likes.
    private func writeOldFormat(count: Int, to home: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let products = Catalog.embedded.items.map(ProductMapper.product(from:))
        var ids: [String] = []
        var text = "{\"schema\":1,\n\"likes\":["
        for i in 0..<count {
            var product = products[i % products.count]
            product.productId = String(70_000_000_000 + i)
            ids.append(product.productId)
            let like = Like(product: product, likedAt: "2026-11-01T00:00:00Z", likedPrice: product.price)
            text += (i == 0 ? "\n" : ",\n") + JSONWriter.string(like.json)
        }
        text += "\n]}\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: home + "/likes.json"))
        return ids
    }

    // MARK: - Killed during migration and compaction

    func testProcessesKilledDuringMigrationAndCompactionKeepEveryAcknowledgedLike() throws {
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        // Migration: each round starts from today's format; the first write migrates it.
        for round in 0..<8 {
            let home = root + "/migrate-\(round)"
            let old = try writeOldFormat(count: 300, to: home)
            let id = Self.catalogIDs[round]
            let process = try start(["like", "--id", id], home: home)
            killAfter(process, seconds: Double.random(in: 0...0.06, using: &generator))
            if process.terminationReason == .uncaughtSignal { killed += 1 }
            assertFilesParse(home, "migration \(round)")
            let ids = Set(try likedIDs(home: home))
            XCTAssertTrue(Set(old).isSubset(of: ids), "migration \(round): every old like is kept")
            if process.terminationReason == .exit && process.terminationStatus == 0 { XCTAssertTrue(ids.contains(id), "acknowledged") }
        }

        // Compaction: a journal limit of one byte makes every write a compaction.
        let env = ["SHOPY_LIKES_JOURNAL_LIMIT": "1"]
        _ = try writeOldFormat(count: 200, to: home)
        var acknowledged = Set<String>(), unliked = Set<String>()
        for round in 0..<30 {
            let unlike = round % 4 == 3 && !acknowledged.isEmpty
            let id = unlike ? acknowledged.sorted()[0] : Self.catalogIDs[10 + round]
            let process = try start([unlike ? "unlike" : "like", "--id", id], home: home, environment: env)
            killAfter(process, seconds: Double.random(in: 0...0.06, using: &generator))
            if process.terminationReason == .uncaughtSignal { killed += 1 }
            let done = process.terminationReason == .exit && process.terminationStatus == 0
            if unlike {
                acknowledged.remove(id)
                if done { unliked.insert(id) }
            } else if done {
                acknowledged.insert(id)
            }
            assertFilesParse(home, "compaction \(round)")
            let ids = Set(try likedIDs(environment: env))
            XCTAssertTrue(acknowledged.isSubset(of: ids), "round \(round): \(acknowledged.subtracting(ids)) acknowledged but gone")
            XCTAssertTrue(unliked.isDisjoint(with: ids), "round \(round): acknowledged unlikes stay unliked")
            XCTAssertEqual(ids.filter { $0.hasPrefix("70000") }.count, 200, "round \(round): the likes nobody touched")
        }
        XCTAssertGreaterThan(killed, 0, "some processes were killed before they finished")
        try ok(["doctor", "--repair"], environment: env)
        let doctor = try ok(["doctor", "--json"], environment: env)
        let statuses = try JSONParser.parse(doctor.stdout)["files"]?.arrayValue?.compactMap { $0["status"]?.stringValue } ?? []
        XCTAssertFalse(statuses.contains { ["damaged", "torn", "stale", "mismatched"].contains($0) }, doctor.stdout)
    }

    func testConcurrentProcessesWithCompactionsAmongThemKeepEveryLike() throws {
        // A small journal limit: several of these writes fold the journal into a new snapshot
        // while the others wait on the lock, and readers list all along.
        let env = ["SHOPY_LIKES_JOURNAL_LIMIT": "3000"]
        try ok(["like", "--id", Self.catalogIDs[0]], environment: env)
        let generation = try XCTUnwrap(contents(likesPath)).prefix(64)
        let ids = Array(Self.catalogIDs[1...24])
        var writers: [Process] = []
        for id in ids { writers.append(try start(["like", "--id", id], home: home, environment: env)) }
        var readers: [Process] = []
        for _ in 0..<6 { readers.append(try start(["likes", "--json"], home: home, environment: env)) }
        for process in writers + readers {
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, "\(process.arguments ?? [])")
        }
        XCTAssertEqual(Set(try likedIDs(environment: env)), Set([Self.catalogIDs[0]] + ids))
        assertFilesParse(home, "after the writers")
        XCTAssertNotEqual(try XCTUnwrap(contents(likesPath)).prefix(64), generation, "at least one write was a compaction")
        let doctor = try ok(["doctor", "--json"], environment: env)
        let statuses = try JSONParser.parse(doctor.stdout)["files"]?.arrayValue?.compactMap { $0["status"]?.stringValue } ?? []
        XCTAssertEqual(Array(statuses.prefix(3)).filter { $0 != "ok" && $0 != "missing" }, [], doctor.stdout)
    }

    // MARK: - Torn tail and damage, end to end

    func testATornTailIsRecoveredAndReportedWhileADamagedLineIs65WithTheBytesUnchanged() throws {
        let ids = Array(Self.catalogIDs.prefix(4))
        try ok(["like", "--id", ids[0]])
        try ok(["like", "--id", ids[1]])
        try ok(["like", "--id", ids[2]])
        let journal = home + "/likes.journal"
        let whole = try XCTUnwrap(contents(journal))
        // Torn: half a line at the end.
        var torn = whole
        torn.append(Data("{\"len\":500,\"crc\":\"0000abcd\",\"changes\":[{\"op\":\"like\",\"like\":{\"productId\":\"9".utf8))
        try torn.write(to: URL(fileURLWithPath: journal))
        XCTAssertEqual(try likedIDs(), [ids[2], ids[1], ids[0]], "recovered: the torn line is dropped")
        let doctor = try ok(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("likes.journal") && doctor.stdout.contains("torn"), doctor.stdout)
        XCTAssertEqual(contents(journal), torn, "doctor alone changes nothing")
        let repair = try ok(["doctor", "--repair"])
        XCTAssertTrue(repair.stdout.contains("trimmed"), repair.stdout)
        XCTAssertEqual(contents(journal), whole, "trimmed back to the whole lines")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home).filter { $0.hasPrefix("likes.journal.torn-") }.count, 1, "after a backup")
        try ok(["like", "--id", ids[3]])

        // Damaged: a complete line in the middle with one byte changed.
        var bytes = try XCTUnwrap(contents(journal))
        let second = bytes.firstIndex(of: 0x0A)! + 1
        bytes[second + 60] = bytes[second + 60] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
        try bytes.write(to: URL(fileURLWithPath: journal))
        for arguments in [["likes"], ["like", "--id", Self.catalogIDs[9]], ["unlike", "--id", ids[0]], ["likes", "export"]] {
            let result = try runShopy(arguments, home: home)
            assertErrorReport(result, status: 65, contains: [journal, "line 2"])
            XCTAssertEqual(contents(journal), bytes, "\(arguments): the journal is byte for byte unchanged")
        }
        XCTAssertEqual(try runShopy(["doctor"], home: home).status, 65)
        let fixed = try ok(["doctor", "--repair"])
        XCTAssertTrue(fixed.stdout.contains("moved aside"), fixed.stdout)
        XCTAssertEqual(try likedIDs(), [ids[0]], "the snapshot stands; the journal is kept aside")
    }

    // MARK: - Issue 8, items 6 and 7

    func testAFIFOInPlaceOfAStoreFileIs74NamingItAndDoctorFlagsIt() throws {
        try ok(["like", "--id", Self.catalogIDs[0]])
        for name in ["likes.json", "likes.journal", ".likes.lock"] {
            let path = home + "/" + name
            try? FileManager.default.removeItem(atPath: path)
            XCTAssertEqual(mkfifo(path, 0o600), 0)
            // Readers take no lock: only writers meet a lock that is a FIFO.
            let readers = name.hasSuffix(".lock") ? [] : [["likes"]]
            for arguments in readers + [["like", "--id", Self.catalogIDs[1]], ["unlike", "--id", Self.catalogIDs[0]]] {
                let result = try runShopy(arguments, home: home, timeout: 20)  // before the fix: blocked forever
                assertErrorReport(result, status: 74, contains: [path, "FIFO"])
            }
            let search = try runShopy(["search", "방충망", "--size", "3"], home: home, timeout: 20)
            XCTAssertEqual(search.status, 0, "a listing still prints: \(search.stderr)")
            let doctor = try runShopy(["doctor"], home: home, timeout: 20)
            XCTAssertTrue(doctor.stdout.contains(name) && doctor.stdout.contains("FIFO"), doctor.stdout)
            try ok(["doctor", "--repair"])
            var info = stat()
            XCTAssertTrue(lstat(path, &info) != 0 || info.st_mode & S_IFMT == S_IFREG, "\(name): the FIFO is gone from its place")
            try ok(["like", "--id", Self.catalogIDs[2]])
            try ok(["unlike", "--id", Self.catalogIDs[2]])
        }
        let state = home + "/state.json"
        try? FileManager.default.removeItem(atPath: state)
        XCTAssertEqual(mkfifo(state, 0o600), 0)
        let search = try runShopy(["search", "방충망", "--size", "3"], home: home, timeout: 20)
        XCTAssertEqual(search.status, 0)
        XCTAssertTrue(search.stderr.contains(state) && search.stderr.contains("FIFO"), search.stderr)
        assertErrorReport(try runShopy(["like", "1"], home: home, timeout: 20), status: 74, contains: [state])
    }

    func testStoreFilesAndLocksThatAreSymlinksAreRefusedAndTheirTargetsNeverTouched() throws {
        try ok(["like", "--id", Self.catalogIDs[0]])
        let victim = root + "/victim.txt"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
        XCTAssertEqual(chmod(victim, 0o644), 0)

        // A lock symlinked to another file: refused, and that file is not chmod-ed.
        let lock = home + "/.likes.lock"
        try? FileManager.default.removeItem(atPath: lock)
        XCTAssertEqual(symlink(victim, lock), 0)
        assertErrorReport(try runShopy(["like", "--id", Self.catalogIDs[1]], home: home), status: 74, contains: [lock, "symbolic link"])
        XCTAssertEqual(FileIO.mode(of: victim), 0o644, "the link's target keeps its mode")
        XCTAssertEqual(contents(victim), Data("keep me".utf8))

        // A dangling lock link: the search does not create its target.
        let created = root + "/created-by-shopy"
        let stateLock = home + "/.state.lock"
        try? FileManager.default.removeItem(atPath: stateLock)
        XCTAssertEqual(symlink(created, stateLock), 0)
        let search = try runShopy(["search", "방충망", "--size", "3"], home: home)
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: created), "nothing is created through the link")

        // doctor reports them; --repair removes the lock links, never their targets.
        let doctor = try runShopy(["doctor"], home: home)
        XCTAssertTrue(doctor.stdout.contains(".likes.lock") && doctor.stdout.contains("symbolic link"), doctor.stdout)
        try ok(["doctor", "--repair"])
        var info = stat()
        XCTAssertNotEqual(lstat(lock, &info) == 0 ? info.st_mode & S_IFMT : 0, S_IFLNK)
        XCTAssertEqual(contents(victim), Data("keep me".utf8))
        XCTAssertEqual(FileIO.mode(of: victim), 0o644)
        XCTAssertFalse(FileManager.default.fileExists(atPath: created))
        try ok(["like", "--id", Self.catalogIDs[1]])

        // likes.json a link to a likes file elsewhere: refused; doctor --repair leaves the link
        // and its target exactly as they are.
        let elsewhere = root + "/elsewhere.json"
        try FileManager.default.copyItem(atPath: likesPath, toPath: elsewhere)
        XCTAssertEqual(chmod(elsewhere, 0o644), 0)
        let target = try XCTUnwrap(contents(elsewhere))
        try FileManager.default.removeItem(atPath: likesPath)
        XCTAssertEqual(symlink(elsewhere, likesPath), 0)
        for arguments in [["likes"], ["like", "--id", Self.catalogIDs[2]], ["unlike", "--id", Self.catalogIDs[0]], ["likes", "export"]] {
            assertErrorReport(try runShopy(arguments, home: home), status: 74, contains: [likesPath, "symbolic link"])
        }
        let report = try runShopy(["doctor"], home: home)
        XCTAssertTrue(report.stdout.contains("likes.json") && report.stdout.contains("symbolic link"), report.stdout)
        _ = try runShopy(["doctor", "--repair"], home: home)
        XCTAssertEqual(lstat(likesPath, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK, "the link stays")
        XCTAssertEqual(contents(elsewhere), target, "its target's bytes are untouched")
        XCTAssertEqual(FileIO.mode(of: elsewhere), 0o644, "and its mode")
    }
}
