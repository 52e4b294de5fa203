// The likes' export file (LikesFile in Sources/ShopYCLI/Commands/LikesCommand.swift): what
// `likes export` writes (and the backup `likes clear` writes) `likes import` reads back as
// written, duplicates and many likes included, and its timestamps order as their text does; an
// import of a like without a usable productId is refused whole.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
import ShopYTestSupport

final class LikesFileTests: XCTestCase {
    static let seed: UInt64 = 0x5EED_2024
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "shopy-likes-file-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    func like(_ id: String, title: String = "상품", price: Int? = 1000) -> Like {
        Like(product: Product(productId: id, title: title, price: price, mall: "몰"), likedAt: "2026-12-01T00:00:00Z", likedPrice: price)
    }

    func contents(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }

    @discardableResult
    func change(_ store: SettingsStore, _ body: (inout LikeCollection) -> Void) throws -> LikeCollection {
        try store.update([.likes]) { settings in
            var likes = settings.likes
            body(&likes)
            settings.likes = likes
            return likes
        }
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

    func testLikesExportsImportBackAsWritten() throws {
        var values = HostileValues(g: SeededGenerator(seed: Self.seed + 5))
        for round in 0..<40 {
            var likes = LikeCollection()
            var added: [Like] = []
            var book = PriceBook()
            for _ in 0..<values.int(0...6) {
                let like = Like(product: values.product(), likedAt: values.string(), likedPrice: values.optionalInt())
                if (try? likes.insert(like)) == true {
                    added.append(like)
                    var record = PriceRecord()
                    record.record(PricePoint(at: values.string(), price: values.optionalInt()))
                    book[like.product.productId] = record
                }
            }
            let export = LikesFile.export(likes, at: Like.timestamp(values.date()), prices: book)
            let path = directory + "/export-\(round).json"
            XCTAssertEqual(try LikesFile.parse(export, path: path), added, "seed \(Self.seed + 5) round \(round)")
            XCTAssertEqual(try PriceExport.parse(export, path: path) ?? PriceBook(), book, "seed \(Self.seed + 5) round \(round)")
        }
    }

    func testAnImportOfABadIdIsMalformedAndNamesTheLike() async throws {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        for (body, expected) in [(#"[{"productId":"1"},{"productId":"abc"}]"#, "like 2 has a \"productId\" that is not 1 to 32 ASCII digits, alone or after 11st: or coupang:"),
                                 (#"[{"productId":" 12 "}]"#, "like 1 has a \"productId\""),
                                 (#"[{"productId":"123456789012345678901234567890123"}]"#, "like 1 has a \"productId\""),
                                 (#"[{"title":"no id"}]"#, "like 1 has no \"productId\"")] {
            let file = home.path + "/import.json"
            XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(body.utf8)))
            let run = await home.run(["likes", "import", file])
            XCTAssertEqual(run.code, 65, body + run.stderr)
            XCTAssertTrue(run.stderr.contains(expected), run.stderr)
        }
        let ok = home.path + "/ok.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: ok, contents: Data(#"[{"productId":"12"},{"productId":"12"}]"#.utf8)))
        let run = await home.run(["likes", "import", ok])
        XCTAssertEqual(run.code, 0, run.stderr)
    }
}
