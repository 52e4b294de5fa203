import Foundation
import XCTest
@testable import ShopYCore

/// A search with many candidates verifies them in contiguous parts on several cores: the same
/// hits in the same order as one pass, on a well-formed index and on a damaged one, and what
/// the reference implementation gives.
final class CatalogParallelSearchTests: StoreDirectoryTestCase {
    /// The SHOPY_HOME of the test: its fresh store directory.
    var home: String { directory }

    /// `count` generated items written as the local catalog (deduplicated as import does), and
    /// the catalog a search reads: the embedded items, then the local ones, mapped.
    func writeCatalog(_ count: Int) throws -> (Catalog, [WireItem]) {
        var records = CatalogLocalSearchTests.records(deduplicating: CatalogLocalSearchTests.generated(count, seed: 41))
        // One local record replaces an embedded item (hidden in the embedded segment).
        var replaced = Catalog.embedded.items[3]
        replaced.title = "교체된 생활 방충망"
        records.append(CatalogRecord(item: replaced, firstSeen: "t", updated: "t", origin: "test"))
        try LocalCatalog(directory: home).write(records, after: 0)
        let catalog = try Catalog.current(environment: ["SHOPY_HOME": home])
        let embedded = Catalog.embedded.items.enumerated().filter { $0.offset != 3 }.map(\.element)
        return (catalog, embedded + records.map(\.item))
    }

    /// The catalog's segments as `Catalog.search` builds them.
    func segments(_ catalog: Catalog) -> [CatalogMatcher.Segment] {
        var base = 0
        return catalog.parts.enumerated().map { p, part in
            defer { base += part.index.count }
            let last = p + 1 == catalog.parts.count
            return CatalogMatcher.Segment(index: part.index, base: base, hidden: { last ? false : catalog.isHidden(part: p, ordinal: $0) })
        }
    }

    /// A matcher's answer: its total and every hit (segment, ordinal, score, place, price).
    struct Answer: Equatable, CustomStringConvertible {
        var total: Int
        var hits: [[Int]]
        var description: String { "\(total) matches, \(hits.count) hits, first \(hits.prefix(3))" }
    }

    /// Fails with the first hit where two answers differ (not the whole lists).
    func assertSame(_ got: Answer, _ want: Answer, _ message: String, line: UInt = #line) {
        guard got != want else { return }
        let at = (0..<min(got.hits.count, want.hits.count)).first { got.hits[$0] != want.hits[$0] } ?? min(got.hits.count, want.hits.count)
        XCTFail("\(message): \(got.total) against \(want.total) matches; hit \(at): \(at < got.hits.count ? "\(got.hits[at])" : "none") against \(at < want.hits.count ? "\(want.hits[at])" : "none")", line: line)
    }

    func answer(_ catalog: Catalog, _ request: SearchRequest, _ parallelism: CatalogMatcher.Parallelism, first: Int = Int.max) -> Answer {
        var matcher = CatalogMatcher(request: request)
        matcher.parallelism = parallelism
        let (total, hits) = matcher.matches(in: segments(catalog), first: first)
        return Answer(total: total, hits: hits.map { [$0.segment, $0.ordinal, $0.score, $0.global, $0.price ?? -1] })
    }

    func testThePartsTakenForACountOfCandidates() {
        let two = CatalogMatcher.Parallelism(maximumParts: 2, candidatesPerPart: 8_192)
        XCTAssertEqual(two.parts(for: 0), 1)
        XCTAssertEqual(two.parts(for: 340), 1, "the embedded catalog never pays for a thread")
        XCTAssertEqual(two.parts(for: 16_383), 1)
        XCTAssertEqual(two.parts(for: 16_384), 2)
        XCTAssertEqual(two.parts(for: 61_534), 2, "a search of a million items takes both cores")
        XCTAssertEqual(CatalogMatcher.Parallelism(maximumParts: 4, candidatesPerPart: 100).parts(for: 250), 2)
        XCTAssertEqual(CatalogMatcher.Parallelism(maximumParts: 4, candidatesPerPart: 100).parts(for: 10_000), 4)
        XCTAssertEqual(CatalogMatcher.Parallelism.sequential.parts(for: 1_000_000), 1)
        XCTAssertEqual(CatalogMatcher.Parallelism(maximumParts: 1, candidatesPerPart: 1).parts(for: 1_000_000), 1)
        let automatic = CatalogMatcher.Parallelism.automatic
        XCTAssertEqual(automatic.parts(for: 340), 1)
        XCTAssertEqual(automatic.parts(for: 16_383), 1)
        XCTAssertEqual(automatic.parts(for: 61_534), ProcessInfo.processInfo.activeProcessorCount >= 2 ? 2 : 1)
    }

    /// Every query, sort, filter and page: the parallel parts (2, 3 and 7 of them) give exactly
    /// the hits of one pass, and `Catalog.search` what the reference gives.
    func testPartsGiveTheHitsOfOnePassAndTheReferenceAnswers() throws {
        let (catalog, items) = try writeCatalog(3_000)
        let reference = CatalogLocalSearchTests.Reference(items: items)
        let queries = ["생활", "shoes", "SHOES 운동화", "방충망", "자석 방충망", "pro", "미니3", "반려", "교체된", "없는말", "x"]
        var parallelChecked = 0
        for query in queries {
            for sort in SortOrder.allCases {
                for naverPay in [false, true] {
                    let request = SearchRequest(query: query, sort: sort, start: 1, display: 100, naverPayOnly: naverPay, exclude: naverPay ? [.rental] : [])
                    let one = answer(catalog, request, .sequential)
                    for parts in [2, 3, 7] {
                        let split = CatalogMatcher.Parallelism(maximumParts: parts, candidatesPerPart: 16)
                        assertSame(answer(catalog, request, split), one, "\(query) \(sort) np=\(naverPay) parts=\(parts)")
                        let page = answer(catalog, request, split, first: 20)
                        assertSame(page, answer(catalog, request, .sequential, first: 20), "\(query) \(sort) first 20")
                        if sort == .sim {
                            // The best hits kept as found: the prefix of every hit sorted.
                            assertSame(page, Answer(total: one.total, hits: Array(one.hits.prefix(20))), "\(query) best 20 parts=\(parts)")
                        }
                    }
                    if one.total >= 32 { parallelChecked += 1 }
                    for (start, display) in [(1, 100), (40, 20)] {
                        var paged = request
                        paged.start = start
                        paged.display = display
                        let got = catalog.search(paged), want = reference.search(paged)
                        XCTAssertEqual(got.total, want.total, "\(query) \(sort) \(start)/\(display) np=\(naverPay)")
                        XCTAssertEqual(got.items.map(\.productId), want.ids, "\(query) \(sort) \(start)/\(display) np=\(naverPay)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(parallelChecked, 40, "the queries have enough candidates to be split")
    }

    /// A catalog large enough for the automatic rule to split a search (more than 2 × 8,192
    /// candidates): `Catalog.search` answers as the reference does, at every sort and page.
    func testALargeCatalogTakesTheParallelPathAndAnswersAsTheReference() throws {
        let (catalog, items) = try writeCatalog(40_000)
        let request = SearchRequest(query: "생활", sort: .sim, start: 1, display: 100)
        let candidates = CatalogCandidates.ordinals(catalog.parts[1].index, keys: [CatalogText.termKeys(Array("생활".utf8))]).count
        XCTAssertGreaterThanOrEqual(candidates, 16_384, "the automatic rule splits this search")
        XCTAssertEqual(CatalogMatcher.Parallelism(maximumParts: 2, candidatesPerPart: 8_192).parts(for: candidates), 2)
        let reference = CatalogLocalSearchTests.Reference(items: items)
        for query in ["생활", "생활 방충망"] {
            for sort in query == "생활" ? SortOrder.allCases : [.sim] {
                for (start, display) in [(1, 100), (901, 100)] {
                    var paged = request
                    paged.query = query
                    paged.sort = sort
                    paged.start = start
                    paged.display = display
                    let two = CatalogMatcher.Parallelism(maximumParts: 2, candidatesPerPart: 8_192)
                    assertSame(answer(catalog, paged, two), answer(catalog, paged, .sequential), "\(query) \(sort)")
                    let got = catalog.search(paged), want = reference.search(paged)
                    XCTAssertEqual(got.total, want.total, "\(query) \(sort) \(start)")
                    XCTAssertEqual(got.items.map(\.productId), want.ids, "\(query) \(sort) \(start)")
                }
            }
        }
    }

    /// A damaged catalog.index (mapped, its pages released as the parts go) answers less, never
    /// traps, and the parts still give exactly the hits of one pass.
    func testADamagedIndexGivesTheSameAnswersInPartsAndNeverTraps() throws {
        let (_, _) = try writeCatalog(3_000)
        let path = LocalCatalog(directory: home).indexPath
        let good = Array(try XCTUnwrap(FileManager.default.contents(atPath: path)))
        let layout = try CatalogIndex(bytes: good).layout
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Int { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Int(truncatingIfNeeded: seed >> 33) }
        var damages: [[UInt8]] = []
        // Postings out of order, past the items, or all one ordinal.
        for fill in [{ (i: Int) in UInt32(layout.postingCount - i) }, { (i: Int) in UInt32(i % 5 == 0 ? 4_000_000 : (i * 7919) % 3_100) }, { _ in UInt32(17) }] {
            var bytes = good
            for i in 0..<layout.postingCount { withUnsafeBytes(of: fill(i).littleEndian) { bytes.replaceSubrange((layout.postings + i * 4)..<(layout.postings + i * 4 + 4), with: $0) } }
            damages.append(bytes)
        }
        // Random bytes anywhere after the header, and records whose texts point anywhere.
        for round in 0..<40 {
            var bytes = good
            for _ in 0..<(1 + next() % 200) {
                let at = round % 2 == 0 ? CatalogIndexFormat.headerSize + next() % (good.count - CatalogIndexFormat.headerSize)
                                        : layout.records + next() % (layout.count * CatalogIndexFormat.recordSize)
                bytes[at] = [0, 0xFF, UInt8(next() & 0xFF)][next() % 3]
            }
            damages.append(bytes)
        }
        var answered = 0
        for bytes in damages {
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            guard let catalog = try? Catalog.current(environment: ["SHOPY_HOME": home]) else { continue }
            for query in ["생활", "shoes 운동화", "방충망"] {
                for sort in [SortOrder.sim, .date, .asc] {
                    let request = SearchRequest(query: query, sort: sort, start: 1, display: 100)
                    let one = answer(catalog, request, .sequential)
                    let three = CatalogMatcher.Parallelism(maximumParts: 3, candidatesPerPart: 16)
                    assertSame(answer(catalog, request, three), one, "\(query) \(sort)")
                    if sort == .sim {
                        // The best hits kept as found, in parts, over a damaged index: the prefix of one pass's.
                        assertSame(answer(catalog, request, three, first: 20), Answer(total: one.total, hits: Array(one.hits.prefix(20))), "\(query) best 20")
                    }
                    _ = catalog.search(request)
                    answered += one.total
                }
            }
        }
        XCTAssertGreaterThan(answered, 0, "damaged indexes still answer")
    }
}
