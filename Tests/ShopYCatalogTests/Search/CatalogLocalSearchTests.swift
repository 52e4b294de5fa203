import Foundation
import XCTest
@testable import ShopYBase
@testable import ShopYCatalog

/// Search parity on a local catalog: the indexed search against a plain reference written here
/// (a scan with Swift's own string search, the semantics the API documents), and an import while
/// searches run.
final class CatalogLocalSearchTests: CatalogDirectoryTestCase {
    /// The SHOPY_HOME of the test: its fresh store directory.
    var home: String { directory }

    /// Items derived from the recorded ones with varied titles, ids, malls and prices.
    static func generated(_ count: Int, seed: UInt64 = 17, idBase: Int = 50_000_000_000) -> [WireItem] {
        var rng = SplitMix(seed)
        let source = Catalog.embedded.items
        let words = ["Shoes", "운동화", "에어팟", "케이스", "pro", "MAX", "미니", "대용량", "방충망", "자석"]
        return (0..<count).map { i in
            var item = source[Int(rng.next() % UInt64(source.count))]
            let extra = words[Int(rng.next() % UInt64(words.count))]
            let tail = (rng.next() % 3 == 0) ? " " + words[Int(rng.next() % UInt64(words.count))] + "\(i % 7)" : ""
            item.title = rng.next() % 2 == 0 ? "\(extra) \(item.title)\(tail)" : "\(item.title)\(extra.lowercased())\(tail)"
            item.productId = String(idBase + Int(rng.next() % 9_000_000))  // duplicates possible: the last one wins
            item.mallName = "몰\(i % 13)"
            item.lprice = rng.next() % 10 == 0 ? "" : String(100 + Int(rng.next() % 100_000))
            return item
        }
    }

    // MARK: - The reference

    struct Reference {
        var items: [WireItem]
        private var prepared: [(cleaned: String, title: String, fields: [String])] = []

        init(items: [WireItem]) {
            self.items = items
            prepared = items.map { item in
                let cleaned = TitleCleaner.clean(item.title)
                let fields = [item.brand, item.maker, item.category1, item.category2, item.category3, item.category4]
                    .compactMap { $0.map(TitleCleaner.clean)?.lowercased() }.filter { !$0.isEmpty }
                return (cleaned, cleaned.lowercased(), fields)
            }
        }

        func search(_ request: SearchRequest) -> (total: Int, ids: [String]) {
            let terms = request.query.lowercased().split(whereSeparator: { $0.isWhitespace }).map(String.init)
            guard !terms.isEmpty else { return (0, []) }
            let phrase = terms.joined(separator: " ")
            var scored: [(Int, Int)] = []
            for (i, item) in items.enumerated() {
                let (cleaned, title, fields) = prepared[i]
                let link = item.link ?? ""
                if request.naverPayOnly && !(link.contains("://smartstore.naver.com/") || link.contains("://brand.naver.com/")) { continue }
                if request.exclude.contains(.rental) && cleaned.contains("렌탈") { continue }
                var total = 0
                var matched = true
                for term in terms {
                    var best = 0
                    if let r = title.range(of: term) {
                        best = r.lowerBound == title.startIndex || title[title.index(before: r.lowerBound)].isWhitespace ? 10 : 6
                    }
                    if best < 5 { for f in fields { if f == term { best = max(best, 5) } else if f.contains(term) { best = max(best, 3) } } }
                    if best == 0 { matched = false; break }
                    total += best
                }
                guard matched else { continue }
                if terms.count > 1 && title.contains(phrase) { total += 5 }
                scored.append((i, total))
            }
            scored.sort { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
            var order = scored.map(\.0)
            let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
            switch request.sort {
            case .sim: break
            case .date:
                order.sort { a, b in
                    let x = items[a].productId, y = items[b].productId
                    return x != y ? (x.count != y.count ? x.count > y.count : x > y) : rank[a]! < rank[b]!
                }
            case .asc, .dsc:
                order.sort { a, b in
                    switch (ProductMapper.price(items[a].lprice), ProductMapper.price(items[b].lprice)) {
                    case let (x?, y?) where x != y: return request.sort == .asc ? x < y : x > y
                    case (nil, _?): return false
                    case (_?, nil): return true
                    default: return rank[a]! < rank[b]!
                    }
                }
            }
            let from = request.start - 1
            let page = from < order.count ? Array(order[from..<min(order.count, from + request.display)]) : []
            return (order.count, page.map { items[$0].productId })
        }
    }

    /// Records of these items deduplicated as import does: the last record of an id wins, in its
    /// first place.
    static func records(deduplicating items: [WireItem]) -> [CatalogRecord] {
        var seen: [String: Int] = [:]
        var records: [CatalogRecord] = []
        for item in items {
            if let at = seen[item.productId] { records[at].item = item } else {
                seen[item.productId] = records.count
                records.append(CatalogRecord(item: item, firstSeen: "t", updated: "t", origin: "test"))
            }
        }
        return records
    }

    func testLocalCatalogMatchesTheReference() throws {
        let local = LocalCatalog(directory: home)
        var incoming = CatalogLocalSearchTests.generated(800)
        var records = CatalogLocalSearchTests.records(deduplicating: incoming)
        // One local record replaces an embedded item.
        var replaced = Catalog.embedded.items[0]
        replaced.title = "교체된 방충망 Shoes"
        records.append(CatalogRecord(item: replaced, firstSeen: "t", updated: "t", origin: "test"))
        try local.write(records, after: 0)
        incoming = records.map(\.item)
        let catalog = try Catalog.current(environment: ["SHOPY_HOME": home])
        let reference = Reference(items: Array(Catalog.embedded.items.dropFirst()) + incoming)
        XCTAssertEqual(catalog.items.count, reference.items.count)

        let queries = ["shoes", "SHOES 운동화", "운동", "에어팟 케이스", "pro", "max", "방충망", "자석 방충망", "미니3", "고양이", "생활", "apple", "x", "없는말", "교체된"]
        var checked = 0
        for query in queries {
            for sort in SortOrder.allCases {
                for (start, display) in [(1, 100), (4, 10), (40, 20)] {
                    for naverPay in [false, true] {
                        let request = SearchRequest(query: query, sort: sort, start: start, display: display, naverPayOnly: naverPay,
                                                    exclude: naverPay ? [.rental] : [])
                        let got = catalog.search(request)
                        let want = reference.search(request)
                        XCTAssertEqual(got.total, want.total, "\(query) \(sort) \(start)/\(display) np=\(naverPay)")
                        XCTAssertEqual(got.items.map(\.productId), want.ids, "\(query) \(sort) \(start)/\(display) np=\(naverPay)")
                        XCTAssertEqual(got.start, start)
                        XCTAssertEqual(got.display, want.ids.count)
                        checked += want.ids.count
                    }
                }
            }
        }
        XCTAssertGreaterThan(checked, 2000, "the queries match items")
    }

    /// Imports replace the catalog while searches run: each search sees one whole catalog (all
    /// of its page from generation A or all from B, with that catalog's total).
    func testImportWhileSearchingSeesOldOrNewNeverAMix() async throws {
        let local = LocalCatalog(directory: home)
        func items(_ tag: String, _ count: Int) -> [CatalogRecord] {
            (0..<count).map { i in
                CatalogRecord(item: WireItem(title: "동시성 \(tag) 상품 \(i)", lprice: String(1000 + i), productId: String(70_000_000_000 + i)),
                              firstSeen: "t", updated: "t", origin: tag)
            }
        }
        let a = items("alpha", 30), b = items("beta", 45)
        try local.write(a, after: 0)
        let stop = ManagedAtomicFlag()
        let writer = Thread {
            var flip = false
            while !stop.isSet {
                try? local.update { records in records = flip ? a : b; return ((), true) }
                flip.toggle()
            }
        }
        writer.start()
        defer { stop.set() }
        var seen: Set<Int> = []
        for _ in 0..<150 {
            let catalog = try Catalog.current(environment: ["SHOPY_HOME": home])
            let page = catalog.search(SearchRequest(query: "동시성", sort: .asc, start: 1, display: 100))
            let tags = Set(page.items.map { $0.title.contains("alpha") ? "alpha" : "beta" })
            XCTAssertEqual(tags.count, 1, "one catalog per search")
            XCTAssertEqual(page.total, tags.first == "alpha" ? 30 : 45)
            XCTAssertEqual(page.items.count, page.total)
            seen.insert(page.total)
        }
        stop.set()
        XCTAssertEqual(seen, [30, 45], "the writer ran while searching")
    }
}
