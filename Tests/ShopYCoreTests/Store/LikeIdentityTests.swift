// Every stored like stays removable: productIds follow the product rule, no id twice.
import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYCLI  // ExitCode(for:) only: the one place errors become exit codes

final class LikeIdentityTests: StoreDirectoryTestCase {

    private func contents(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }

    private func store() throws -> SettingsStore {
        let store = SettingsStore(directory: directory + "/home")
        for id in ["1", "2"] {
            try store.update([.likes]) { settings in
                var likes = settings.likes
                likes.add(like(id))
                settings.likes = likes
            }
        }
        return store
    }

    /// Appends a journal line with a valid length and checksum around `payload`.
    private func append(_ payload: String, to path: String) {
        let bytes = Array(payload.utf8)
        var line = Array("{\"len\":\(bytes.count),\"crc\":\"\(CRC32.hex(CRC32.checksum(bytes[...])))\",\"changes\":".utf8)
        line += bytes + Array("}\n".utf8)
        let handle = FileHandle(forWritingAtPath: path)!
        handle.seekToEndOfFile()
        handle.write(Data(line))
        handle.closeFile()
    }

    private func assertDamaged(_ store: SettingsStore, _ path: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let before = contents(path)
        XCTAssertThrowsError(try store.read { $0.likes.ids }, file: file, line: line) { error in
            guard case .damaged(let damaged, let problem)? = error as? StoreError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(damaged, path, file: file, line: line)
            XCTAssertTrue(problem.contains(expected), problem, file: file, line: line)
            XCTAssertEqual(ExitCode(for: error), .dataError, file: file, line: line)
        }
        XCTAssertEqual(contents(path), before, "unchanged", file: file, line: line)
    }

    func testAJournalLikeOrUnlikeOfAnIdOutsideTheRuleIsDamage() throws {
        let store = try store()
        let journal = store.likesFiles.journal
        let lines = String(decoding: contents(journal) ?? [], as: UTF8.self).split(separator: "\n").count
        append(#"[{"op":"unlike","productId":"../x"}]"#, to: journal)
        assertDamaged(store, journal, "line \(lines + 1) change 1 unlikes a \"productId\" that is not 1 to 32 ASCII digits, alone or after 11st: or coupang:")
    }

    func testAJournalLikeOfABadIdIsDamage() throws {
        let store = try store()
        let journal = store.likesFiles.journal
        append(#"[{"op":"like","like":{"productId":"12a","title":"x"}}]"#, to: journal)
        assertDamaged(store, journal, "change 1 has a \"productId\" that is not 1 to 32 ASCII digits, alone or after 11st: or coupang:")
    }

    func testOneIdLikedTwiceInATransactionIsDamage() throws {
        let store = try store()
        let journal = store.likesFiles.journal
        append(#"[{"op":"like","like":{"productId":"7"}},{"op":"like","like":{"productId":"7"}}]"#, to: journal)
        assertDamaged(store, journal, "likes productId 7 twice")
    }

    func testAnIdListedTwiceInTheSnapshotIsDamage() throws {
        let store = try store()
        let snapshot = store.likesFiles.snapshot
        var text = String(decoding: contents(snapshot)!, as: UTF8.self)
        let first = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("{\"productId\":\"1\"") })
        let line = String(first.hasSuffix(",") ? first.dropLast() : first)
        text = text.replacingOccurrences(of: line, with: line + ",\n" + line)
        XCTAssertTrue(FileManager.default.createFile(atPath: snapshot, contents: Data(text.utf8)))
        assertDamaged(store, snapshot, "has the productId 1 of item 1 again")
    }
}
