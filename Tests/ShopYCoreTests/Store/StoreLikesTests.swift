// Tests for the likes' collection and raw codec, and the history. (How `like`/`unlike` read their
// arguments: ShopYCLITests/Commands/LikeTargetTests.)

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYBase

final class StoreLikesTests: StoreUnitTestCase {
    // MARK: - LikeCollection and Like

    func testLikeCollectionAddRemoveContainsAll() throws {
        var likes = LikeCollection()
        XCTAssertTrue(likes.isEmpty)
        XCTAssertTrue(likes.add(like("111", at: "2026-01-01T00:00:00Z")))
        XCTAssertTrue(likes.add(like("222")))
        XCTAssertFalse(likes.add(like("111", title: "다른 제목", at: "2030-01-01T00:00:00Z")), "liked already: kept as it was")
        XCTAssertEqual(likes.count, 2)
        XCTAssertEqual(likes.ids, ["111", "222"])
        XCTAssertTrue(likes.contains("111"))
        XCTAssertFalse(likes.contains("333"))
        XCTAssertEqual(try likes.like("111"), like("111", at: "2026-01-01T00:00:00Z"))
        XCTAssertNil(try likes.like("333"))
        XCTAssertEqual(try likes.all(), [like("111", at: "2026-01-01T00:00:00Z"), like("222")])

        XCTAssertTrue(likes.remove("111"))
        XCTAssertFalse(likes.remove("111"), "removing an absent like is not an error")
        XCTAssertEqual(likes.ids, ["222"])
        likes.removeAll()
        XCTAssertTrue(likes.isEmpty)
        XCTAssertEqual(likes.encodeStored(), Array("[]".utf8))
    }

    func testLikeCollectionStoredFormRoundTripsOneLikeALine() throws {
        var likes = LikeCollection()
        likes.add(like("111", title: "줄\n바꿈과 \"따옴표\" \\ 그리고 \u{2028}"))
        likes.add(like("222", price: nil))
        likes.add(Like(product: Product(productId: "333", title: ""), likedAt: "", likedPrice: nil))
        let stored = likes.encodeStored()
        let lines = String(decoding: stored, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 5, "[, three likes, ]: \(lines)")
        XCTAssertEqual(lines.first, "[")
        XCTAssertEqual(lines.last, "]")
        for (i, line) in lines.dropFirst().dropLast().enumerated() {
            let text = line.hasSuffix(",") ? line.dropLast() : line
            let json = try JSONParser.parse(String(text))
            XCTAssertEqual(json["productId"]?.stringValue, ["111", "222", "333"][i])
            XCTAssertEqual(try Like(json: json), try likes.all()[i])
        }

        let decoded = try LikeCollection.decodeStored(stored)
        XCTAssertEqual(decoded.ids, likes.ids)
        XCTAssertEqual(try decoded.all(), try likes.all())
        XCTAssertEqual(decoded.encodeStored(), stored, "stable: what is read is written back byte for byte")
        XCTAssertEqual(try LikeCollection.decodeStored(Array("[]".utf8)).count, 0)
        XCTAssertEqual(try LikeCollection.decodeStored(Array(" [ ] ".utf8)).count, 0)

        // Codable, for anything that goes through it, has the same flat shape.
        let data = try JSONEncoder().encode(likes)
        XCTAssertEqual(try JSONDecoder().decode(LikeCollection.self, from: data).all(), try likes.all())
        let first = try JSONParser.parse(Array(data)).arrayValue?.first
        XCTAssertEqual(first?["productId"], .string("111"))
        XCTAssertEqual(first?["likedAt"], .string("2026-01-02T03:04:05Z"))
    }

    func testIdsAreFoundWhereverProductIdIsInAHandWrittenLike() throws {
        let text = """
        [
          {"title": "first key is not the id", "productId": "111"},
          { "productId" : "222" },
          {"productId":"3\\u00334","title":"escaped"},
          {"categories":["a"],"likedAt":"2026-01-01T00:00:00Z","productId":"555","price":1000}
        ]
        """
        var likes = try LikeCollection.decodeStored(Array(text.utf8))
        XCTAssertEqual(likes.ids, ["111", "222", "334", "555"])
        XCTAssertTrue(likes.contains("334"))
        XCTAssertEqual(try likes.like("555")?.product.price, 1000)
        XCTAssertEqual(try likes.like("111")?.product.title, "first key is not the id")

        // Adding and removing keep the untouched likes as they were written.
        likes.add(like("666"))
        XCTAssertTrue(likes.remove("222"))
        let out = String(decoding: likes.encodeStored(), as: UTF8.self)
        XCTAssertTrue(out.contains("{\"title\": \"first key is not the id\", \"productId\": \"111\"}"), out)
        XCTAssertTrue(out.contains("{\"productId\":\"3\\u00334\",\"title\":\"escaped\"}"), out)
        XCTAssertFalse(out.contains("\"222\""), out)
        XCTAssertEqual(try LikeCollection.decodeStored(likes.encodeStored()).ids, ["111", "334", "555", "666"])
    }

    func testRemovingAnIdHeldTwiceLeavesNone() throws {
        var likes = try LikeCollection.decodeStored(Array("[{\"productId\":\"1\"},{\"productId\":\"2\"},{\"productId\":\"1\"}]".utf8))
        XCTAssertTrue(likes.remove("1"))
        XCTAssertFalse(likes.contains("1"))
        XCTAssertEqual(likes.ids, ["2"])
    }

    func testLikeJSONIsStrict() throws {
        let original = like("80285861246")
        XCTAssertEqual(try Like(json: original.json), original)
        XCTAssertEqual(original.json.objectValue?.keys.first, "productId", "productId first: the store's fast path")
        for bad in ["[]", "{}", "{\"productId\":1}", "{\"productId\":\"\"}", "{\"productId\":\"1\",\"price\":\"x\"}",
                    "{\"productId\":\"1\",\"price\":1.5}", "{\"productId\":\"1\",\"categories\":[1]}", "{\"productId\":\"1\",\"title\":[]}"] {
            XCTAssertThrowsError(try Like(json: try JSONParser.parse(bad)), bad)
        }
        XCTAssertEqual(Like.timestamp(Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z")
        XCTAssertEqual(Like.timestamp(Date(timeIntervalSince1970: 1_795_984_423.9)), "2026-11-29T20:33:43Z")
    }

    // MARK: - History

    func testHistoryRecordDedupesOrdersAndCaps() {
        var history: [HistoryEntry] = []
        history = HistoryEntry.record("a", at: "1", in: history)
        history = HistoryEntry.record("b", at: "2", in: history)
        history = HistoryEntry.record("a", at: "3", in: history)
        XCTAssertEqual(history, [HistoryEntry(query: "a", at: "3"), HistoryEntry(query: "b", at: "2")])

        for i in 1...105 { history = HistoryEntry.record("q\(i)", at: "\(i)", in: history) }
        XCTAssertEqual(history.count, HistoryEntry.limit)
        XCTAssertEqual(HistoryEntry.limit, 100)
        XCTAssertEqual(history.first?.query, "q105")
        XCTAssertEqual(history.last?.query, "q6")
        XCTAssertEqual(Set(history.map(\.query)).count, 100)

        // An old query searched again moves to the front; nothing else is lost.
        history = HistoryEntry.record("q50", at: "now", in: history)
        XCTAssertEqual(history.count, 100)
        XCTAssertEqual(history.first, HistoryEntry(query: "q50", at: "now"))
        XCTAssertEqual(history.last?.query, "q6")
        XCTAssertEqual(history.filter { $0.query == "q50" }.count, 1)
    }

    // MARK: - LikeTarget

    func testLikedRowsFindRowsAndIds() throws {
        let rows = try XCTUnwrap(LikedRows(["111", "2222", "33"]))
        XCTAssertEqual(rows.joined, "111,2222,33")
        XCTAssertEqual(rows.count, 3)
        XCTAssertEqual([0, 1, 2, 3, 4].map { rows.id(atRow: $0) }, [nil, "111", "2222", "33", nil])
        XCTAssertEqual(["111", "2222", "33", "3", "1111", ""].map { rows.row(of: $0) }, [1, 2, 3, nil, nil, nil])
        XCTAssertEqual(LikedRows([])?.count, 0)
        XCTAssertNil(LikedRows([""]))
        XCTAssertNil(LikedRows(["12a"]))
        XCTAssertNil(LikedRows(["1,2"]), "an id never holds the separator")
        for bad in [",", "1,", ",1", "1,,2", " 1", String(repeating: "9", count: 33), "１"] {
            XCTAssertNil(LikedRows(joined: bad), bad)
        }
        XCTAssertNotNil(LikedRows(joined: String(repeating: "9", count: 32) + ",1"))
    }
}
