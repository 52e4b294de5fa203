// The likes index checks itself: an edited body (a line deleted, lines out of order) under a
// header that still matches the snapshot is stale, never trusted to say "not liked".
import Foundation
import XCTest
@testable import ShopYCore

final class LikesIndexCheckTests: StoreDirectoryTestCase {

    func testATamperedIndexIsStaleAndRebuilt() throws {
        let store = SettingsStore(directory: directory + "/home")
        let files = store.likesFiles
        let ids = (0..<40).map { String(100 + $0) }
        try store.update([.likes]) { settings in
            var likes = settings.likes
            for id in ids { likes.add(like(id)) }
            settings.likes = likes
        }
        let good = try XCTUnwrap(FileManager.default.contents(atPath: files.index))
        let lines = String(decoding: good, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].contains("\"crc\":"), lines[0])
        let deleted = [lines[0]] + lines[1...].filter { !$0.hasPrefix("\"120\"") }
        let unsorted = [lines[0], lines[lines.count - 1]] + lines[1..<(lines.count - 1)]
        for tampered in [deleted, unsorted] {
            XCTAssertTrue(FileManager.default.createFile(atPath: files.index, contents: Data((tampered.joined(separator: "\n") + "\n").utf8)))
            XCTAssertNil(try LikesIndex.parse(Array(XCTUnwrap(FileManager.default.contents(atPath: files.index)))))
            XCTAssertEqual(try store.read { s in ids.filter { s.likes.contains($0) } }, ids, "every like is found")
            let removed = try store.update([.likes]) { settings -> Bool in
                var likes = settings.likes
                let removed = likes.remove(ids.last!)
                likes.add(like(ids.last!))
                settings.likes = likes
                return removed
            }
            XCTAssertTrue(removed, "unlike finds the listed like")
            XCTAssertNotNil(LikesIndex.parse(Array(try XCTUnwrap(FileManager.default.contents(atPath: files.index)))), "rebuilt by the write")
        }
        XCTAssertNotNil(LikesIndex.parse(Array(good)))
    }
}
