// The likes journal (continued): torn and damaged lines, concurrency. (What doctor says of them:
// ShopYCLITests/Commands/DoctorLikesFilesTests; imports: LikesFileTests.)

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYBase
import ShopYCLI  // ExitCode(for:) only: the one place errors become exit codes

extension LikesJournalTests {
    // MARK: - Torn and damaged lines

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
}
