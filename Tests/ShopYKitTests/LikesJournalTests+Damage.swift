// The likes journal (continued): torn and damaged lines, a stale index, concurrency, import.

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

extension LikesJournalTests {
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
