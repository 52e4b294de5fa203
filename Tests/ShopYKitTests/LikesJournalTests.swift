// The likes' snapshot, journal and index (issue 11): migration, appends, compaction and its
// interruption, torn and damaged journal lines, stale indexes, concurrent writers and readers.
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI

final class LikesJournalTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "shopy-journal-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        LikesCommit.compactionHook = nil
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    private func like(_ id: String, title: String = "상품", price: Int? = 1000) -> Like {
        Like(product: Product(productId: id, title: title, price: price, mall: "몰"), likedAt: "2026-12-01T00:00:00Z", likedPrice: price)
    }

    private func contents(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }

    private func ids(_ store: SettingsStore) throws -> [String] { try store.read { $0.likes.ids } }

    @discardableResult
    private func change(_ store: SettingsStore, _ body: (inout LikeCollection) -> Void) throws -> LikeCollection {
        try store.update([.likes]) { settings in
            var likes = settings.likes
            body(&likes)
            settings.likes = likes
            return likes
        }
    }

    private func journalLines(_ files: LikesFiles) -> [String] {
        guard let bytes = contents(files.journal) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    // MARK: - Appends and the index

    func testALikeAppendsOneLineAndLeavesTheSnapshotAndItsIndexAlone() throws {
        let store = SettingsStore(directory: directory + "/home")
        let files = store.likesFiles
        try change(store) { for i in 0..<20 { $0.add(like("1000\(i)")) } }  // the first write makes a snapshot
        let snapshot = try XCTUnwrap(contents(files.snapshot))
        let index = try XCTUnwrap(contents(files.index))
        XCTAssertNil(contents(files.journal), "a first write folds into the snapshot")

        try change(store) { XCTAssertTrue($0.add(like("2000", title: "줄\n바꿈 \"따옴표\""))) }
        try change(store) { XCTAssertTrue($0.remove("10003")) }
        try change(store) { XCTAssertFalse($0.add(like("10004")), "liked already"); XCTAssertFalse($0.remove("999")) }
        XCTAssertEqual(contents(files.snapshot), snapshot, "likes.json is not rewritten by a like")
        XCTAssertEqual(contents(files.index), index)
        let lines = journalLines(files)
        XCTAssertEqual(lines.count, 3, "a header and one line per changing transaction: \(lines)")
        XCTAssertTrue(lines[0].hasPrefix("{\"journal\":1,\"snapshot\":\""), lines[0])
        for line in lines { XCTAssertNoThrow(try JSONParser.parse(line), "every line is JSON") }
        XCTAssertEqual(FileIO.mode(of: files.journal), 0o600)

        let expected = (0..<20).map { "1000\($0)" }.filter { $0 != "10003" } + ["2000"]
        XCTAssertEqual(try ids(store), expected)
        try store.read { settings in
            XCTAssertTrue(settings.likes.contains("2000"))
            XCTAssertFalse(settings.likes.contains("10003"))
            XCTAssertTrue(settings.likes.contains("100019"), "from the index")
            XCTAssertEqual(try settings.likes.like("10007")?.product.productId, "10007", "read where the index says")
            XCTAssertEqual(try settings.likes.like("2000")?.product.title, "줄\n바꿈 \"따옴표\"")
            XCTAssertNil(try settings.likes.like("42"))
            XCTAssertNotNil(settings.likes.base?.index, "an id the index does not list is no reason to drop it")
            XCTAssertFalse(settings.likes.base?.hasReadSnapshot ?? true, "questions about ids never read the other likes")
        }
        // What a like does: it reads the index and the journal, not the snapshot.
        try store.update([.likes]) { settings in
            var likes = settings.likes
            likes.add(like("3000"))
            likes.remove("100011")
            settings.likes = likes
            XCTAssertFalse(likes.base?.hasReadSnapshot ?? true)
        }
        XCTAssertEqual(contents(files.snapshot), snapshot)
    }

    func testTheIndexFindsEveryIdAndNoOther() throws {
        var entries: [LikesIndex.Entry] = []
        let ids = (0..<500).map { i in i % 7 == 0 ? "id-\(i)-\"q\"\\" : String(80_000_000_000 + i * 37) }
        for (i, id) in ids.enumerated() { entries.append(LikesIndex.Entry(id: id, offset: i * 10, length: 9)) }
        var info = stat()
        XCTAssertEqual(stat(directory, &info), 0)
        let identity = SnapshotIdentity(generation: "ab12", info: info)
        let index = try XCTUnwrap(LikesIndex.parse(LikesIndex.build(entries.shuffled(), identity: identity)))
        XCTAssertEqual(index.identity, identity)
        XCTAssertEqual(index.count, 500)
        for (i, id) in ids.enumerated() {
            XCTAssertEqual(index.lookup(id)?.offset, i * 10, id)
        }
        for absent in ["", "8", "80000000001", "id-7-\"q\"", "zzz", "id-0-\"q\"\\\\"] { XCTAssertNil(index.lookup(absent), absent) }
        XCTAssertNil(LikesIndex.parse(Array("not an index\n".utf8)))
    }

    // MARK: - Migration

    func testTodaysLikesJSONIsReadAndMigratedLosslesslyOnTheFirstWrite() throws {
        let store = SettingsStore(directory: directory + "/home")
        let files = store.likesFiles
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        // As shopy wrote it until now (schema 1), with a hand-edited like (other key order, an
        // extra key) and a key of a newer writer.
        let old = "{\"schema\":1,\n\"likes\":[\n"
            + "{\"productId\":\"111\",\"title\":\"첫 번째\",\"price\":1000,\"highPrice\":null,\"mall\":\"몰\",\"brand\":null,\"maker\":null,\"categories\":[\"생활\"],\"productType\":2,\"link\":null,\"image\":null,\"likedAt\":\"2026-11-01T00:00:00Z\",\"likedPrice\":1000},\n"
            + "{\"title\":\"손으로 고친\",\"productId\":\"222\",\"extra\":true,\"likedAt\":\"2026-11-02T00:00:00Z\"}\n"
            + "],\n\"future\":{\"a\":[1,2]}}\n"
        _ = FileManager.default.createFile(atPath: files.snapshot, contents: Data(old.utf8))
        let before = try store.read { try $0.allLikes() }
        XCTAssertEqual(before.map(\.product.productId), ["111", "222"])
        XCTAssertEqual(contents(files.snapshot), Array(old.utf8), "reading changes nothing")
        XCTAssertNil(contents(files.index))

        try change(store) { $0.add(like("333")) }
        let migrated = String(decoding: try XCTUnwrap(contents(files.snapshot)), as: UTF8.self)
        XCTAssertTrue(migrated.hasPrefix("{\"schema\":2,\n\"generation\":\""), migrated)
        for line in old.split(separator: "\n") where line.hasPrefix("{\"productId\":\"111\"") || line.hasPrefix("{\"title\"") {
            XCTAssertTrue(migrated.contains(line.hasSuffix(",") ? String(line.dropLast()) : String(line)), "each like's bytes are kept: \(line)")
        }
        let document = try JSONParser.parse(migrated)
        XCTAssertEqual(document["future"], try JSONParser.parse("{\"a\":[1,2]}"), "a newer writer's key is kept")
        XCTAssertNotNil(contents(files.index), "the index is built")
        let after = try store.read { try $0.allLikes() }
        XCTAssertEqual(Array(after.prefix(2)), before)
        XCTAssertEqual(after.map(\.product.productId), ["111", "222", "333"])
    }

    func testALargeSnapshotWithABadUTF8ByteIsDamage() throws {
        // Past 4 MB the UTF-8 check runs beside the walk: it must still decide.
        let store = SettingsStore(directory: directory + "/home")
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        var text = "{\"schema\":1,\n\"likes\":["
        let title = String(repeating: "방충망 ", count: 150)
        for i in 0..<2_500 { text += (i == 0 ? "\n" : ",\n") + JSONWriter.string(like(String(10_000 + i), title: title).json) }
        text += "\n]}\n"
        var bytes = Array(text.utf8)
        XCTAssertGreaterThan(bytes.count, 4 << 20)
        _ = FileManager.default.createFile(atPath: store.likesFiles.snapshot, contents: Data(bytes))
        XCTAssertEqual(try SettingsStore(directory: store.directory).read { $0.likes.count }, 2_500, "whole: it loads")
        let spot = bytes.count - 5_000
        bytes[spot] = 0xFF
        _ = FileManager.default.createFile(atPath: store.likesFiles.snapshot, contents: Data(bytes))
        XCTAssertThrowsError(try store.read { $0.likes.count }) { error in
            guard case StoreError.damaged(_, let problem)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertTrue(problem.contains("UTF-8"), problem)
        }
    }

    // MARK: - Compaction

    func testTheJournalIsFoldedIntoANewSnapshotPastItsLimit() throws {
        let store = SettingsStore(directory: directory + "/home", journalLimit: 3000)
        let files = store.likesFiles
        try change(store) { $0.add(like("1")) }
        var generations: Set<String> = []
        var compactions = 0
        for i in 2...40 {
            let hadJournal = contents(files.journal) != nil
            try change(store) { likes in
                if i % 5 == 0 { likes.remove(String(i - 1)) } else { likes.add(like(String(i))) }
            }
            let generation = String(decoding: contents(files.snapshot)!.prefix(60), as: UTF8.self)
            if hadJournal && contents(files.journal) == nil { compactions += 1 }
            generations.insert(generation)
        }
        XCTAssertGreaterThanOrEqual(compactions, 3, "the journal was folded in several times")
        XCTAssertGreaterThanOrEqual(generations.count, 4, "each compaction writes a new generation")
        let expected = (1...40).filter { $0 % 5 != 0 && $0 % 5 != 4 }.map(String.init)
        XCTAssertEqual(try ids(store), expected)
        XCTAssertLessThanOrEqual(contents(files.journal)?.count ?? 0, 3000 + 1000)
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
        // snapshot leaves. Its changes are in the snapshot already; replaying them would be wrong.
        let stale = LikesJournal.header(generation: "00000000000000000000000000000000")
            + LikesJournal.line([.remove("1"), .remove("2")])
        _ = FileManager.default.createFile(atPath: files.journal, contents: Data(stale))
        XCTAssertEqual(try ids(store), ["1", "2"])
        let doctor = try DoctorCommand(try ArgumentParser.parse([], for: DoctorCommand.spec, commandPath: "doctor"))
        XCTAssertEqual(doctor.checkLikes(files)[1].status, "stale")
        try change(store) { $0.add(like("3")) }
        XCTAssertEqual(try ids(store), ["1", "2", "3"])
        XCTAssertFalse(journalLines(files).contains { $0.contains("\"unlike\"") }, "the stale journal is gone")
    }

    // MARK: - Torn and damaged lines

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

    func testADamagedLineInTheMiddleIsDamageAndNothingIsWritten() throws {
        let store = SettingsStore(directory: directory + "/home")
        let files = store.likesFiles
        try change(store) { $0.add(like("1")) }
        for id in ["2", "3", "4"] { try change(store) { $0.add(like(id)) } }
        var bytes = try XCTUnwrap(contents(files.journal))
        // One byte of line 3 (the like of "3") changed: its checksum no longer matches.
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let offset = lines[0].count + 1 + lines[1].count + 1 + 80
        bytes[offset] = bytes[offset] == UInt8(ascii: "a") ? UInt8(ascii: "b") : UInt8(ascii: "a")
        _ = FileManager.default.createFile(atPath: files.journal, contents: Data(bytes))
        for attempt in ["read", "like", "unlike"] {
            do {
                switch attempt {
                case "read": _ = try ids(store)
                case "like": try change(store) { $0.add(like("5")) }
                default: try change(store) { $0.remove("1") }
                }
                XCTFail("\(attempt): damage is an error")
            } catch let error as StoreError {
                guard case .damaged(let path, let problem) = error else { return XCTFail("\(error)") }
                XCTAssertEqual(path, files.journal)
                XCTAssertTrue(problem.hasPrefix("line 3"), problem)
                XCTAssertEqual(ExitCode(for: error), .dataError)
            }
            XCTAssertEqual(contents(files.journal), bytes, "\(attempt): the journal is byte for byte unchanged")
        }
    }

    // MARK: - A stale index

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
        let lines = String(decoding: good, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        // (Its checksum recomputed: a body that fails the header's CRC is merely stale.)
        let body = lines.dropFirst(2).joined(separator: "\n")
        let header = String(lines[0]).replacingOccurrences(of: #""crc":"[0-9a-f]{8}""#, with: "\"crc\":\"\(CRC32.hex(CRC32.checksum(Array(body.utf8)[...])))\"", options: .regularExpression)
        let wrong = header + "\n" + body
        _ = FileManager.default.createFile(atPath: files.index, contents: Data(wrong.utf8))
        let doctor = try DoctorCommand(try ArgumentParser.parse([], for: DoctorCommand.spec, commandPath: "doctor"))
        XCTAssertEqual(doctor.checkLikes(files)[2].status, "mismatched")
        let repair = try DoctorCommand(try ArgumentParser.parse(["--repair"], for: DoctorCommand.spec, commandPath: "doctor"))
        let reports = try repair.likesReports(store: store, now: Date())
        XCTAssertEqual(reports[2].actions, ["rebuilt from likes.json"])
        XCTAssertEqual(contents(files.index), good)
        XCTAssertEqual(doctor.checkLikes(files)[2].status, "ok")
    }

    // MARK: - Concurrency

    func testConcurrentWritersWithCompactionsAmongThemLoseNothingAndReadersSeeWholeStates() throws {
        let directory = self.directory + "/home"
        let store = SettingsStore(directory: directory, journalLimit: 4000)
        try change(store) { $0.add(like("990003")) }
        let problems = Problems()
        let threads = 6, perThread = 15
        // Six writers (the journal's small limit makes several of their writes compactions) and
        // a reader all along: every state it sees is whole (it holds the seed, never shrinks).
        DispatchQueue.concurrentPerform(iterations: threads + 1) { t in
            if t == threads {
                var last = 0
                for _ in 0..<60 {
                    do {
                        let seen = try SettingsStore(directory: directory).read { $0.likes.ids }
                        if !seen.contains("990003") || seen.count < last { problems.add("reader saw \(seen.count) after \(last)") }
                        last = seen.count
                    } catch {
                        problems.add("reader: \(error)")
                    }
                }
                return
            }
            for i in 0..<perThread {
                do {
                    try SettingsStore(directory: directory, journalLimit: 4000).update([.likes]) { settings in
                        var likes = settings.likes
                        likes.add(Like(product: Product(productId: "\(t * 1000 + i)", title: "t"), likedAt: "", likedPrice: nil))
                        settings.likes = likes
                    }
                } catch {
                    problems.add("writer \(t)-\(i): \(error)")
                }
            }
        }
        XCTAssertEqual(problems.all, [])
        let all = Set(try ids(store))
        XCTAssertEqual(all.count, threads * perThread + 1)
        for t in 0..<threads { for i in 0..<perThread { XCTAssertTrue(all.contains("\(t * 1000 + i)")) } }
    }

    func testLikedAtSortKeysOrderAsTheTextDoes() throws {
        func raw(_ likedAt: String) throws -> LikeCollection.RawLike {
            var like = like("1")
            like.likedAt = likedAt
            return try LikeCollection.element(from: ArraySlice(JSONWriter.serialize(like.json))).checked
        }
        let times = ["2026-11-29T20:33:43Z", "2026-01-02T03:04:05Z", "2026-11-29T20:33:44Z", "1999-12-31T23:59:59Z"]
        let keys = try XCTUnwrap(LikesFile.timestampKeys(try times.map(raw)))
        XCTAssertEqual(keys[0], 20261129203343)
        XCTAssertEqual(keys.indices.sorted { keys[$0] < keys[$1] }, times.indices.sorted { times[$0] < times[$1] })
        for odd in ["", "2026-11-29 20:33:43Z", "2026-11-29T20:33:43+09", "2026-1x-29T20:33:43Z"] {
            XCTAssertNil(LikesFile.timestampKeys(try [raw(times[0]), raw(odd)]), "\(odd): compared as text instead")
        }
    }

    // MARK: - Import

    func testImportOfAnExportWithDuplicatesAndOfManyLikes() throws {
        let store = SettingsStore(directory: directory + "/home")
        try change(store) { $0.add(like("1")) }
        // An export holding "1" (liked already) and "2" twice: one added, two kept.
        var export = LikeCollection()
        export.add(like("1", title: "다른 제목"))
        export.add(like("2"))
        var bytes = LikesFile.export(export, at: "2026-12-01T00:00:00Z")
        let text = String(decoding: bytes, as: UTF8.self)
        let second = try XCTUnwrap(text.range(of: "{\"productId\":\"2\"").map { text[$0.lowerBound...] }.flatMap { $0.split(separator: "\n").first })
        bytes = Array(text.replacingOccurrences(of: "\n]}", with: ",\n\(second)\n]}").utf8)
        let elements = try XCTUnwrap(LikesFile.checkedElements(bytes))
        XCTAssertEqual(elements.map(\.id), ["1", "2", "2"])
        let (added, kept) = try store.update([.likes]) { settings -> (Int, Int) in
            var likes = settings.likes
            var added = 0, kept = 0
            for element in elements { if try likes.addImported(element, now: "now") { added += 1 } else { kept += 1 } }
            settings.likes = likes
            return (added, kept)
        }
        XCTAssertEqual(added, 1)
        XCTAssertEqual(kept, 2)
        XCTAssertEqual(try store.read { try $0.allLikes() }.map(\.product.title), ["상품", "상품"], "an existing like keeps its snapshot")

        // 20,000 likes (the benchmark goes to 100,000): linear, one compaction.
        var many = LikeCollection()
        for i in 0..<20_000 { many.add(like(String(50_000_000_000 + i))) }
        let big = LikesFile.export(many, at: "2026-12-01T00:00:00Z")
        let checked = try XCTUnwrap(LikesFile.checkedElements(big))
        try store.update([.likes]) { settings in
            var likes = settings.likes
            for element in checked { try likes.addImported(element, now: "now") }
            settings.likes = likes
        }
        XCTAssertEqual(try store.read { $0.likes.count }, 20_002)
        XCTAssertNil(contents(store.likesFiles.journal), "folded into the snapshot, not appended")
    }
}

private final class Problems: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ problem: String) { lock.lock(); list.append(problem); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
