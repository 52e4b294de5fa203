// `doctor` on the store's files (Sources/ShopYCLI/Commands/DoctorLikesFiles.swift, DoctorCommand.swift):
// what it says of the likes' snapshot, journal and index after a stopped compaction, a torn
// line, a stale or mismatched index, a journal of another likes.json, an empty journal; and what
// --repair moves aside or rebuilds. The store's own behaviour: ShopYCoreTests/Store/LikesJournalTests.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class DoctorLikesFilesTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "shopy-doctor-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        LikesCommit.compactionHook = nil
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    func like(_ id: String, title: String = "상품", price: Int? = 1000) -> Like {
        Like(product: Product(productId: id, title: title, price: price, mall: "몰"), likedAt: "2026-12-01T00:00:00Z", likedPrice: price)
    }

    /// A store whose directory does not exist yet (shopy creates it).
    func makeStore() -> SettingsStore { SettingsStore(directory: directory + "/home") }

    func contents(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }

    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func names(in path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    func ids(_ store: SettingsStore) throws -> [String] { try store.read { $0.likes.ids } }

    @discardableResult
    func change(_ store: SettingsStore, _ body: (inout LikeCollection) -> Void) throws -> LikeCollection {
        try store.update([.likes]) { settings in
            var likes = settings.likes
            body(&likes)
            settings.likes = likes
            return likes
        }
    }

    func journalLines(_ files: LikesFiles) -> [String] {
        guard let bytes = contents(files.journal) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// likes.json holding 1 and 2, and a journal of another generation that liked 7 and unliked 1.
    func storeWithAnUnfoldedStaleJournal(_ name: String, journalLimit: Int = 1 << 20) throws -> (SettingsStore, [UInt8]) {
        let store = SettingsStore(directory: directory + "/" + name, journalLimit: journalLimit)
        try change(store) { $0.add(like("1")); $0.add(like("2")) }
        let seven = try LikeCollection.element(from: ArraySlice(JSONWriter.serialize(like("7").json)))
        let journal = LikesJournal.header(generation: "ffffffffffffffffffffffffffffffff") + LikesJournal.line([.add(seven), .remove("1")])
        _ = FileManager.default.createFile(atPath: store.likesFiles.journal, contents: Data(journal))
        return (store, journal)
    }

    /// The store `doctor` runs on in process.
    var home: String { directory }
    var journal: String { home + "/likes.journal" }

    func add(_ store: SettingsStore, _ id: String) throws { try change(store) { $0.add(like(id)) } }

    func shopy(_ arguments: [String]) async -> CLIRun {
        let io = IO.capture(environment: ["SHOPY_HOME": home])
        let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    func asides(_ store: SettingsStore) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { $0.hasPrefix("likes.journal.aside-") }
    }

    func testAStopBetweenTheStepsOfACompactionLosesNothing() throws {
        for step in CompactionStep.allCases {
            let store = SettingsStore(directory: directory + "/\(step.rawValue)", journalLimit: 1)
            try change(store) { for i in 0..<10 { $0.add(like("\(i)")) } }
            LikesCommit.compactionHook = { if $0 == step { throw StoredValueError("stopped at \(step)") } }
            XCTAssertThrowsError(try change(store) { $0.add(like("990001")); $0.remove("3") }, "\(step)")
            LikesCommit.compactionHook = nil
            let after = try ids(store)
            let old = (0..<10).map(String.init)
            if step == .loaded {
                XCTAssertEqual(after, old, "stopped before anything was written: the old state")
            } else {
                XCTAssertEqual(after, old.filter { $0 != "3" } + ["990001"], "\(step): the new snapshot stands")
            }
            // And the store goes on: the next write repairs what the stop left (index, journal).
            try change(store) { $0.add(like("990002")) }
            XCTAssertEqual(try ids(store).last, "990002", "\(step)")
            XCTAssertEqual(try ids(store).count, after.count + 1)
            let doctor = try DoctorCommand(try ArgumentParser.parse([], for: DoctorCommand.spec, commandPath: "doctor"))
            let reports = doctor.checkLikes(store.likesFiles)
            XCTAssertEqual(reports[0].status, "ok", "\(step): \(reports[0].problem ?? "")")
            XCTAssertEqual(reports[2].status, "ok", "\(step): the index matches again: \(reports[2].problem ?? "")")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { $0.contains(".tmp-") }, [])
        }
    }

    func testAJournalLeftByAStoppedCompactionIsIgnoredThenRemoved() throws {
        let store = SettingsStore(directory: directory + "/home", journalLimit: 1)
        let files = store.likesFiles
        try change(store) { $0.add(like("1")) }
        try change(store) { $0.add(like("2")) }
        // A journal that names another generation: what a compaction stopped after replacing the
        // snapshot leaves. Its changes are in the snapshot already (2 was liked, 5 unliked).
        let two = try LikeCollection.element(from: ArraySlice(JSONWriter.serialize(like("2").json)))
        let stale = LikesJournal.header(generation: "00000000000000000000000000000000")
            + LikesJournal.line([.add(two), .remove("5")])
        _ = FileManager.default.createFile(atPath: files.journal, contents: Data(stale))
        XCTAssertEqual(try ids(store), ["1", "2"])
        let doctor = try DoctorCommand(try ArgumentParser.parse([], for: DoctorCommand.spec, commandPath: "doctor"))
        XCTAssertEqual(doctor.checkLikes(files)[1].status, "stale")
        try change(store) { $0.add(like("3")) }
        XCTAssertEqual(try ids(store), ["1", "2", "3"])
        XCTAssertFalse(journalLines(files).contains { $0.contains("\"unlike\"") }, "the stale journal is gone")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { $0.contains("aside") }, [],
                       "folded: removed, not kept aside")
    }

    func testATornLastLineIsDroppedAndTrimmedAfterABackup() throws {
        let store = SettingsStore(directory: directory + "/home")
        let files = store.likesFiles
        try change(store) { $0.add(like("1")) }
        try change(store) { $0.add(like("2")) }
        // A crash mid-append: the start of a line, no newline.
        let whole = try XCTUnwrap(contents(files.journal))
        let torn = Array(LikesJournal.line([.add(try LikeCollection.element(from: ArraySlice(JSONWriter.serialize(like("3").json))))]).dropLast(40))
        _ = FileManager.default.createFile(atPath: files.journal, contents: Data(whole + torn))
        XCTAssertEqual(try ids(store), ["1", "2"], "read without the torn line")
        let doctor = try DoctorCommand(try ArgumentParser.parse([], for: DoctorCommand.spec, commandPath: "doctor"))
        XCTAssertEqual(doctor.checkLikes(files)[1].status, "torn")

        try change(store) { $0.add(like("4")) }
        XCTAssertEqual(try ids(store), ["1", "2", "4"])
        let backups = try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { $0.hasPrefix("likes.journal.torn-") }
        XCTAssertEqual(backups.count, 1)
        XCTAssertEqual(contents(store.directory + "/" + backups[0]), torn, "the torn bytes are kept")
        XCTAssertEqual(doctor.checkLikes(files)[1].status, "ok")
    }

    func testAnIndexThatDoesNotMatchIsRebuiltWithTheSameResult() throws {
        let store = SettingsStore(directory: directory + "/home")
        let files = store.likesFiles
        try change(store) { for i in 0..<50 { $0.add(like("\(100 + i)")) } }
        let good = try XCTUnwrap(contents(files.index))
        let answers = try store.read { s in (0..<200).map { s.likes.contains("\($0)") } }
        // An index of another snapshot (its size differs) and one that is not an index at all.
        let other = String(decoding: good, as: UTF8.self).replacingOccurrences(of: "\"size\":", with: "\"size\":1")
        for bogus in [Array(other.utf8), Array("garbage".utf8)] {
            _ = FileManager.default.createFile(atPath: files.index, contents: Data(bogus))
            XCTAssertEqual(try store.read { s in (0..<200).map { s.likes.contains("\($0)") } }, answers, "the same answers without it")
            XCTAssertEqual(try store.read { s in try s.likes.like("120")?.product.productId }, "120")
            try change(store) { $0.add(like("999")) }
            try change(store) { $0.remove("999") }
            XCTAssertEqual(contents(files.index), good, "rebuilt by the next write, byte for byte")
        }
        // One that names this very snapshot but lists the wrong ids: doctor finds it, --repair
        // rebuilds it.
        // (Built whole, its links sound: one with a line merely cut out is broken, hence stale.)
        let parsed = try XCTUnwrap(LikesIndex.parse(good))
        let entries = LikesCommit.entries(try LikesBase.load(files).snapshot().elements)
        let wrong = LikesIndex.build(Array(entries.dropFirst()), key: parsed.key, seen: parsed.seen)
        _ = FileManager.default.createFile(atPath: files.index, contents: Data(wrong))
        let doctor = try DoctorCommand(try ArgumentParser.parse([], for: DoctorCommand.spec, commandPath: "doctor"))
        XCTAssertEqual(doctor.checkLikes(files)[2].status, "mismatched")
        let repair = try DoctorCommand(try ArgumentParser.parse(["--repair"], for: DoctorCommand.spec, commandPath: "doctor"))
        let reports = try repair.likesReports(store: store, now: Date())
        XCTAssertEqual(reports[2].actions, ["rebuilt from likes.json"])
        XCTAssertEqual(contents(files.index), good)
        XCTAssertEqual(doctor.checkLikes(files)[2].status, "ok")
    }

    /// An index that is a directory, a FIFO or a link is the index's problem alone: likes.json
    /// and its journal are reported sound and never moved aside for it; --repair moves a
    /// directory or FIFO index aside and builds it again, and leaves a link (and its target).
    func testAnIndexThatIsNotARegularFileNeverPutsTheLikesAside() throws {
        let store = SettingsStore(directory: directory + "/home")
        let files = store.likesFiles
        try change(store) { for i in 0..<5 { $0.add(like("\(100 + i)")) } }
        try change(store) { $0.remove("100") }  // a journal beside the snapshot
        let good = try XCTUnwrap(contents(files.index))
        let doctor = try DoctorCommand(try ArgumentParser.parse([], for: DoctorCommand.spec, commandPath: "doctor"))
        let repair = try DoctorCommand(try ArgumentParser.parse(["--repair"], for: DoctorCommand.spec, commandPath: "doctor"))
        for kind in ["directory", "fifo", "link"] {
            XCTAssertEqual(unlink(files.index), 0)
            switch kind {
            case "directory": XCTAssertEqual(mkdir(files.index, 0o700), 0)
            case "fifo": XCTAssertEqual(mkfifo(files.index, 0o600), 0)
            default: XCTAssertEqual(symlink(directory + "/elsewhere", files.index), 0)
            }
            let before = names(in: store.directory)
            let checked = doctor.checkLikes(files)
            XCTAssertEqual(checked.map(\.status), ["ok", "ok", "unsafe"], "\(kind): \(checked.map { $0.problem ?? "" })")
            XCTAssertEqual(checked[0].entries, "4 likes (5 in the snapshot)", kind)
            let reports = try repair.likesReports(store: store, now: Date())
            XCTAssertEqual(reports[0].actions, [], "\(kind): likes.json is never moved aside for its index")
            XCTAssertEqual(reports[1].actions, [], kind)
            if kind == "link" {
                XCTAssertEqual(reports[2].actions, [], "a link is left as it is")
                XCTAssertTrue(FileManager.default.fileExists(atPath: files.snapshot) && FileManager.default.fileExists(atPath: files.journal))
                XCTAssertEqual(names(in: store.directory), before)
                XCTAssertEqual(FileIO.kind(of: files.index), "a symbolic link")
            } else {
                XCTAssertEqual(reports[2].actions.count, 2, "\(kind): \(reports[2].actions)")
                XCTAssertTrue(reports[2].actions[0].hasPrefix("moved aside to \(store.directory)/likes.index.unsafe"), reports[2].actions[0])
                XCTAssertEqual(reports[2].actions[1], "rebuilt from likes.json")
                XCTAssertEqual(doctor.checkLikes(files).map(\.status), ["ok", "ok", "ok"], kind)
                XCTAssertEqual(contents(files.index), good, "\(kind): the same index as before")
                XCTAssertEqual(try ids(store).count, 4, "\(kind): every like is still there")
            }
        }
    }

    func testDoctorTellsAnUnfoldedStaleJournalFromAFoldedOneAndRepairKeepsItAside() throws {
        let (store, journal) = try storeWithAnUnfoldedStaleJournal("doctor")
        let files = store.likesFiles
        let doctor = try DoctorCommand(try ArgumentParser.parse([], for: DoctorCommand.spec, commandPath: "doctor"))
        let report = doctor.checkLikes(files)[1]
        XCTAssertEqual(report.status, "stale")
        XCTAssertTrue(report.problem?.contains("2 changes are not all in likes.json") == true, report.problem ?? "")
        let repair = try DoctorCommand(try ArgumentParser.parse(["--repair"], for: DoctorCommand.spec, commandPath: "doctor"))
        let actions = try repair.likesReports(store: store, now: Date())[1].actions
        XCTAssertEqual(actions.count, 1)
        XCTAssertTrue(actions[0].hasPrefix("moved aside to " + store.directory + "/likes.journal.aside-"), actions[0])
        XCTAssertNil(contents(files.journal))
        XCTAssertEqual(try asides(store).compactMap { contents(store.directory + "/" + $0) }, [journal])

        // A folded one (its changes are all in likes.json) is named as such and removed.
        let two = try LikeCollection.element(from: ArraySlice(JSONWriter.serialize(like("2").json)))
        _ = FileManager.default.createFile(atPath: files.journal, contents: Data(LikesJournal.header(generation: "ffffffffffffffffffffffffffffffff")
            + LikesJournal.line([.add(two), .remove("9")])))
        XCTAssertTrue(doctor.checkLikes(files)[1].problem?.contains("a compaction folded it in") == true)
        XCTAssertEqual(try repair.likesReports(store: store, now: Date())[1].actions, ["removed: its changes are in likes.json already"])
        XCTAssertNil(contents(files.journal))
        XCTAssertEqual(try asides(store).count, 1, "no second aside")
    }

    func testDoctorMovesAsideOnlyAFileThatIsStillDamagedUnderTheLock() throws {
        let doctor = try DoctorCommand(try ArgumentParser.parse(["--repair"], for: DoctorCommand.spec, commandPath: "doctor"))
        let store = makeStore()
        let path = store.path(of: .likes)
        let now = Date(timeIntervalSince1970: 1_795_984_423)

        // Repaired by someone else meanwhile, and liked again: the good file stays.
        try store.update([.likes]) { settings in
            var likes = settings.likes
            likes.add(self.like("111"))
            settings.likes = likes
        }
        let good = contents(path)
        let action = try doctor.moveAside(.likes, store: store, now: now)
        XCTAssertTrue(action.hasPrefix("left as it is"), action)
        XCTAssertEqual(contents(path), good)
        XCTAssertEqual(names(in: store.directory).filter { $0.contains("damaged") }, [])

        // Still damaged: moved aside, bytes kept, with a name that does not clash.
        for round in 1...2 {
            try write("{\"schema\":1,\"likes\":[", to: path)
            let moved = try doctor.moveAside(.likes, store: store, now: now)
            XCTAssertTrue(moved.hasPrefix("moved aside"), moved)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path))
            let aside = names(in: store.directory).filter { $0.hasPrefix("likes.damaged-20261129T203343Z") }
            XCTAssertEqual(aside.count, round, "\(aside)")
            for name in aside { XCTAssertEqual(contents(store.directory + "/" + name), Array("{\"schema\":1,\"likes\":[".utf8)) }
        }
    }

    func testDoctorCallsAnEmptyJournalEmpty() async throws {
        let store = SettingsStore(directory: home)
        try add(store, "1")
        XCTAssertTrue(FileManager.default.createFile(atPath: journal, contents: Data(), attributes: [.posixPermissions: 0o600]))
        let doctor = await shopy(["doctor"])
        XCTAssertTrue(doctor.stdout.contains("likes.journal     stale: it is empty (a write stopped before its first line; it never held a change): ignored; the next change or --repair removes it"),
                      doctor.stdout)
        XCTAssertFalse(doctor.stdout.contains("compaction"), doctor.stdout)
        let likes = await shopy(["likes"])
        XCTAssertEqual(likes.code, 0, likes.stderr)
        let repair = await shopy(["doctor", "--repair"])
        XCTAssertTrue(repair.stdout.contains("removed: it was empty"), repair.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal))
    }
}
