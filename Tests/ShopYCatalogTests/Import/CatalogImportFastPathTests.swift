import Foundation
import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

/// The import's byte path (`CatalogImportParsing.parseRaw`, `CatalogService.merge`,
/// `CatalogRawWriter`, the raw index build) gives exactly what the String path gives: the same
/// items, skips and reasons, report, catalog.json bytes and catalog.index bytes.
final class CatalogImportFastPathTests: CatalogDirectoryTestCase {
    /// Every kind of item the byte path takes itself or hands to the per-item path.
    static let varied: String = {
        let long = String(repeating: "가", count: 1400)  // 4,200 bytes: over the title limit
        let items = [
            #"{"productId":"101","title":"<b>에어팟</b> 프로 &amp; 케이스 &lt;b&gt;","lprice":"250000","hprice":"","mallName":"몰","link":"https://smartstore.naver.com/a/1","productType":"1","brand":"Apple","maker":"애플","category1":"디지털/가전","category2":"음향","category3":"이어폰","category4":""}"#,
            #"{"productId":102,"title":"Escapes: \"q\" \\ \/ \n\t \u00e9 \ud83d\ude00 lone \ud800 end","lprice":12000,"productType":5}"#,
            #"{"productId":" 103 ","title":"MiXeD CaSe ÀÉÎ İstanbul ß","brand":"ÀBC","maker":null,"category1":"Ω Greek"}"#,
            #"{"productId":"104","title":"C1 \u0085 bidi \u202e sep \u2028 del \u007f ctl \u0001","mallName":"m\u0000n"}"#,
            #"{"productId":"105","title":"렌탈 정수기 해외직구 구매대행","link":"https://brand.naver.com/x","productType":"4"}"#,
            #"{"productId":"101","title":"에어팟 프로 2세대","lprice":"240000"}"#,
            #"{"title":"no id"}"#,
            #"{"productId":"12ab","title":"letters"}"#,
            #"{"productId":"106","title":{"x":1}}"#,
            #""text""#,
            #"42"#,
            #"{"productId":"","title":"empty id"}"#,
            #"{"productId":"   ","title":"blank id"}"#,
            #"{"productId":"107","title":"first","title":"second","lprice":"1","lprice":"2"}"#,
            #"{"productId":"108","\u0074itle":"escaped key","extra":{"deep":[1,2,{"a":null}]},"flag":true}"#,
            #"{"productId":"109","title":"\#(long)"}"#,
            #"{"productId":"110","title":"old shape","link":"http://x","image":"http://i","lprice":"10","hprice":"20","mallName":"몰","productType":"2"}"#,
            #"{"productId":"111","title":"dated","firstSeen":"2026-01-02T03:04:05Z"}"#,
            #"{"productId":"112","title":"bad date","firstSeen":"yesterday"}"#,
            #"{"productId":"113","title":"number date","firstSeen":20260102}"#,
            #"{"productId":"114","title":"future date","firstSeen":"2999-01-01T00:00:00Z"}"#,
            #"{"productId":"115","title":"bool field","lprice":true}"#,
            #"{"productId":"116","title":"  spaced   title  ","brand":"  ","maker":"<i>Maker</i>","lprice":" 77 ","productType":"+5"}"#,
            #"{"productId":"117","title":"tags <b>x</b><b>y</b> </b>z <</b>b>","lprice":"-5"}"#,
            #"{"productId":"101","title":"에어팟 프로 3세대","lprice":"230000"}"#,
            #"{"productId":"00118","title":"leading zeros","lprice":"99999999999999999999"}"#,
            #"{"productId":"118","title":"no leading zeros"}"#,
            #"{"productId":"12345678901234567890123456789012","title":"32 digits"}"#,
            #"{"productId":"123456789012345678901234567890123","title":"33 digits"}"#,
            #"{}"#,
            #"null"#,
            #"{"productId":"110","title":"old shape","link":"http://x","image":"http://i","lprice":"10","hprice":"20","mallName":"몰","productType":"2"}"#,
        ]
        return "[" + items.joined(separator: ",\n") + "]"
    }()

    // MARK: - Parsing

    func assertSameParse(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        CatalogImportFastPathTests.assertSameParse(text, file: file, line: line)
    }

    /// The byte path's parse against the string path's (also for the split scan's tests).
    static func assertSameParse(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let bytes = Array(text.utf8)
        let old = Result { () throws(CatalogImportError) in try CatalogImportParsing.parse(bytes, name: "f.json") }
        let new = Result { () throws(CatalogImportError) in try CatalogImportParsing.parseRaw(bytes, name: "f.json", store: CatalogByteStore()) }
        switch (old, new) {
        case (.success(let a), .success(let b)):
            XCTAssertEqual(a.format, b.format, file: file, line: line)
            XCTAssertEqual(a.items, (0..<b.items.count).map { b.items.item($0) }, file: file, line: line)
            let seen = (0..<b.items.count).map { r -> String? in
                let span = b.items[r, .firstSeen]
                return span.isAbsent ? nil : String(decoding: span.buffer, as: UTF8.self)
            }
            XCTAssertEqual(a.firstSeen, seen, file: file, line: line)
            XCTAssertEqual(a.skipped, b.skipped, file: file, line: line)
        case (.failure(let a), .failure(let b)):
            XCTAssertEqual(a.description, b.description, file: file, line: line)
        default:
            XCTFail("the paths disagree: \(old) vs \(new)", file: file, line: line)
        }
    }

    func testTheBytePathParsesAsTheStringPath() {
        let varied = CatalogImportFastPathTests.varied
        assertSameParse(varied)
        assertSameParse("\u{FEFF}" + varied)
        assertSameParse(#"{"lastBuildDate":"x","total":3,"items":"# + varied + #","start":1}"#)
        assertSameParse(#"{"items":[],"items":[{"productId":"1","title":"x"}]}"#)
        assertSameParse(#"{"items":{"productId":"1"}}"#)
        assertSameParse(#"[{"productId":"1","title":"x"}] trailing"#)
        assertSameParse(#"[{"productId":"1","title":"x"},{"productId":"2","title":"bad \q escape"}]"#)
        assertSameParse(#"[{"productId":"1","title":"x"},{"productId":"2","title":"y"}"#)
        assertSameParse(#"[{"productId":"1","title":"x"},{"productId":"2","lprice":01}]"#)
        assertSameParse("{\"productId\":\"3\",\"title\":\"line one\"}\n{\"items\":[{\"productId\":\"4\",\"title\":\"two\"}]}\n")
        assertSameParse("[" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "]")
        assertSameParse(#"[{"productId":"1","title":"x","deep":"# + String(repeating: "[", count: 520) + String(repeating: "]", count: 520) + "}]")
        assertSameParse("productId,title\n1,x\n")
        assertSameParse("[]")
        assertSameParse("  \n")
        XCTAssertThrowsError(try CatalogImportParsing.parseRaw([0x5B, 0xE9, 0x5D], name: "latin1.json", store: CatalogByteStore()))
    }

    // MARK: - The whole import

    /// The import as the String path did it (the code the byte path replaced), for comparison.
    func referenceImport(_ inputs: [CatalogService.Input], into existing: [CatalogRecord], stamp: String) throws -> (CatalogImportReport, [CatalogRecord]) {
        var r = CatalogImportReport()
        var batches: [(origin: String, items: [WireItem], firstSeen: [String?])] = []
        for input in inputs {
            do {
                let parsed = try CatalogImportParsing.parse(input.bytes, name: input.name)
                r.files.append(.init(name: input.name, format: parsed.format.rawValue, items: parsed.items.count))
                r.skipped += parsed.skipped.map { var s = $0; s.place = "\(input.name) \(s.place)"; return s }
                batches.append((CatalogService.origin(input.name), parsed.items, parsed.firstSeen))
            } catch {
                r.failures.append(error.description)
            }
        }
        var records = existing
        var position: [String: Int] = [:]
        for (i, record) in records.enumerated() { position[record.item.productId] = i }
        var addedNow: [String: String] = [:]
        var updatedNow: Set<String> = []
        for batch in batches {
            for (n, item) in batch.items.enumerated() {
                let seen = n < batch.firstSeen.count ? batch.firstSeen[n].flatMap { $0 <= stamp ? $0 : nil } : nil
                if let at = position[item.productId] {
                    let firstSeen = CatalogRecord.earlier(records[at].firstSeen, seen)
                    if records[at].item.json == item.json && firstSeen == records[at].firstSeen {
                        r.skipped.append(.init(place: batch.origin, productId: item.productId, reason: "unchanged"))
                        continue
                    }
                    records[at].item = item
                    records[at].firstSeen = firstSeen
                    records[at].updated = stamp
                    records[at].origin = batch.origin
                    if addedNow[item.productId] != nil || !updatedNow.insert(item.productId).inserted {
                        r.skipped.append(.init(place: batch.origin, productId: item.productId, reason: "an earlier record of the same productId in this import was replaced by a later one"))
                    } else {
                        r.updated += 1
                    }
                } else {
                    position[item.productId] = records.count
                    records.append(CatalogRecord(item: item, firstSeen: CatalogRecord.earlier(stamp, seen), updated: stamp, origin: batch.origin))
                    addedNow[item.productId] = batch.origin
                    r.added += 1
                }
            }
        }
        r.total = records.count
        return (r, records)
    }

    /// Imports `inputs` both ways and compares the report and both files' bytes.
    func assertSameImport(_ inputs: [CatalogService.Input], now: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let local = LocalCatalog(directory: directory)
        let before = try local.load().records
        let (expectedReport, expectedRecords) = try referenceImport(inputs, into: before, stamp: CatalogRecord.timestamp(now))
        let report = try CatalogService(local: local, now: { now }).importItems(inputs)
        XCTAssertEqual(report, expectedReport, file: file, line: line)
        let after = try local.load()
        let (items, index) = local.encode(expectedRecords, generation: after.generation)
        XCTAssertEqual(after.records, try local.decode(items).records, file: file, line: line)
        XCTAssertEqual(FileManager.default.contents(atPath: local.itemsPath), Data(items), "catalog.json", file: file, line: line)
        XCTAssertEqual(FileManager.default.contents(atPath: local.indexPath), Data(index), "catalog.index", file: file, line: line)
        // The index is the one the search maps: it belongs to the items.
        let mapped = try XCTUnwrap(try MappedBytes.map(path: local.itemsPath))
        XCTAssertTrue(local.belongs(try XCTUnwrap(try CatalogIndex.map(path: local.indexPath)), to: mapped), file: file, line: line)
    }

    func testTheBytePathImportsAsTheStringPath() throws {
        let varied = CatalogImportFastPathTests.varied
        try assertSameImport([.init(name: "varied.json", bytes: Array(varied.utf8))], now: 1_800_000_000)
        // Into that catalog: an answer, JSON lines, CSV, a damaged file and stdin, a day later.
        let answer = #"{"total":2,"items":[{"productId":"101","title":"에어팟 프로 3세대","lprice":"230000"},{"productId":"201","title":"<b>새</b> 상품","firstSeen":"2020-05-05T05:05:05Z"},{"productId":"111","title":"dated","firstSeen":"2025-01-01T00:00:00Z"}]}"#
        let lines = "{\"productId\":\"301\",\"title\":\"line\"}\n{\"productId\":\"101\",\"title\":\"에어팟 \\u00e9\"}\n"
        let csv = "productId,title,lprice\n401,\"csv, item\",5\n102,\"Escapes\",1\n"
        try assertSameImport([.init(name: "dir/answer.json", bytes: Array(answer.utf8)), .init(name: "l.jsonl", bytes: Array(lines.utf8)),
                              .init(name: "c.csv", bytes: Array(csv.utf8)), .init(name: "bad.json", bytes: Array("[{\"productId\":".utf8)),
                              .init(name: "-", bytes: Array(varied.utf8))], now: 1_800_086_400)
        // Records as they are stored: unchanged, nothing written.
        let bytes = FileManager.default.contents(atPath: LocalCatalog(directory: directory).itemsPath)
        let same = #"[{"productId":"301","title":"line"},{"productId":"110","title":"old shape","link":"http://x","image":"http://i","lprice":"10","hprice":"20","mallName":"몰","productType":"2"}]"#
        try assertSameImport([.init(name: "same.json", bytes: Array(same.utf8))], now: 1_800_090_000)
        XCTAssertEqual(FileManager.default.contents(atPath: LocalCatalog(directory: directory).itemsPath), bytes)
    }

    func testCanonicallyEquivalentTextIsUnchanged() throws {
        // "é" precomposed, then decomposed: equal Strings, so the String path said "unchanged".
        try assertSameImport([.init(name: "a.json", bytes: Array(#"[{"productId":"1","title":"caf\u00e9"}]"#.utf8))], now: 1_800_000_000)
        try assertSameImport([.init(name: "b.json", bytes: Array(#"[{"productId":"1","title":"cafe\u0301"}]"#.utf8))], now: 1_800_000_100)
    }

    func testTheTitleFlagsAreThoseOfTheStringPath() throws {
        // The byte path finds the flags' words in its one pass over the title's scalars (or, for
        // a title that takes the full lowercase mapping, in its bytes): the flags, in the index's
        // records, must be those `CatalogEntryFacts` finds with `contains`.
        let titles = ["렌탈", "정수기 렌탈", "렌탈정수기", "렌 탈", "렌렌탈", "탈렌", "렌\\u00a0탈", "렌😀탈", "😀렌탈😀",
                      "해외직구", "해외직 구", "해외해외직구", "해외직직구", "구매대행", "구매구매대행", "대행구매", "해외직구매대행",
                      "직구", "<b>렌</b>탈", "렌&amp;탈", "&#47116;탈", "À 렌탈", "렌탈 Ω", "ÀBC 해외직구", "구매대행 İ",
                      "RENTAL 렌탈", "ＡＢ 렌탈", "\\u3000렌탈\\u3000", "렌탈\\t", "x렌탈y해외직구z구매대행", "렌", "탈"]
        var items: [String] = []
        for (i, title) in titles.enumerated() {
            items.append(#"{"productId":"\#(900 + i)","title":"\#(title)","brand":"렌탈","maker":"해외직구","category1":"구매대행"}"#)
        }
        try assertSameImport([.init(name: "flags.json", bytes: Array(("[" + items.joined(separator: ",") + "]").utf8))], now: 1_800_000_000)
        let local = LocalCatalog(directory: directory)
        let index = try XCTUnwrap(try CatalogIndex.map(path: local.indexPath))
        XCTAssertEqual(index.count, titles.count)
        // Not a test that cannot fail: the expected flags, as a reader sees them.
        let rental = Set(titles.indices.filter { index.record($0)?.flags.contains(.rental) == true })
        let crossBorder = Set(titles.indices.filter { index.record($0)?.flags.contains(.crossBorder) == true })
        XCTAssertEqual(rental, [0, 1, 2, 4, 8, 18, 20, 21, 22, 25, 26, 27, 28, 29])
        XCTAssertEqual(crossBorder, [9, 11, 13, 14, 16, 23, 24, 29])
    }

    func testAByteToEscapeAnywhereInAValueIsEscaped() throws {
        // catalog.json's writer looks for bytes to escape sixteen at a time, and at the last
        // sixteen of a value together: one such byte at each place of values of 0 to 40 bytes.
        let specials = [#"\""#, #"\\"#, #"\u0001"#, #"\u007f"#, #"\u0085"#, #"\u2028"#, #"\u0601"#, "€", "é"]
        var items: [String] = []
        for length in 0...40 {
            for at in 0...length {
                let special = specials[(length + at) % specials.count]
                let value = String(repeating: "a", count: at) + special + String(repeating: "b", count: length - at)
                items.append(#"{"productId":"\#(10_000 + items.count)","title":"t","mallName":"\#(value)"}"#)
            }
            items.append(#"{"productId":"\#(10_000 + items.count)","title":"t","mallName":"\#(String(repeating: "가", count: length))"}"#)
        }
        try assertSameImport([.init(name: "escapes.json", bytes: Array(("[" + items.joined(separator: ",") + "]").utf8))], now: 1_800_000_000)
    }

    func testGeneratedItemsAtSizeGiveTheSameFiles() throws {
        // Enough items for several write chunks and a key table that grows; duplicates too.
        var parts: [String] = []
        let words = ["특가", "신상", "MAX", "Pro", "세트", "렌탈", "해외직구", "ÀÉ", "\\u00e9", "\\\"q\\\"", "<b>b</b>"]
        for i in 0..<6000 {
            let title = "\(words[i % words.count]) 상품 \(i) \(words[(i / 7) % words.count])"
            parts.append(#"{"productId":"\#(5_000_000 + i % 5500)","title":"\#(title)","lprice":"\#(i * 37 % 90000)","mallName":"몰\#(i % 13)","link":"https://smartstore.naver.com/p/\#(i)","brand":"B\#(i % 17)","category1":"생활/건강","productType":"\#(i % 7)"}"#)
        }
        // Fields larger than the writer's buffer, plain and with escapes.
        let big = String(repeating: "이미지", count: 150_000)
        parts.insert(#"{"productId":"7000001","title":"big plain","image":"\#(big)"}"#, at: 10)
        parts.insert(#"{"productId":"7000002","title":"big escaped","image":"\"\#(big)\n"}"#, at: 3000)
        try assertSameImport([.init(name: "gen.json", bytes: Array(("[" + parts.joined(separator: ",") + "]").utf8))], now: 1_800_000_000)
    }
}
