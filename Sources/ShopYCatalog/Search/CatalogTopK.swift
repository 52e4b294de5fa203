import ShopYBase

/// The best `k` hits of a relevance search, kept as they are found, and how many were found: a
/// search with 60,000 matches and a page of 20 neither stores nor sorts the others. A bounded
/// max-heap on (score descending, order ascending), so that most hits cost one comparison with
/// the worst one kept; `sorted()` gives the prefix that sorting every hit would give.
struct CatalogBestHits: Sendable {
    /// How many are kept.
    let k: Int
    /// How many hits were found (kept or not).
    private(set) var count = 0
    /// (key, hit), the largest key (the worst hit kept) at the root.
    private var heap: [(key: UInt64, hit: CatalogMatcher.Hit)] = []

    /// The most a relevance search keeps this way: beyond it (a page past the API's last start),
    /// the matcher sorts every hit.
    static let mostKept = 10_000

    init(keeping k: Int) {
        self.k = max(0, k)
        heap.reserveCapacity(min(self.k, 1_024))
    }

    /// The order of a hit: score descending, then `order` (distinct per hit, below 2³²),
    /// ascending: a smaller key is a better hit.
    static func key(score: Int, order: Int) -> UInt64 {
        UInt64(UInt32.max - UInt32(clamping: score)) << 32 | UInt64(UInt32(truncatingIfNeeded: order))
    }

    /// Counts a hit, and keeps it if it is among the best `k` so far.
    mutating func add(_ hit: CatalogMatcher.Hit, order: Int) {
        count += 1
        keep(CatalogBestHits.key(score: hit.score, order: order), hit)
    }

    /// The kept hits, best first.
    func sorted() -> [CatalogMatcher.Hit] {
        heap.sorted { $0.key < $1.key }.map(\.hit)
    }

    private mutating func keep(_ key: UInt64, _ hit: CatalogMatcher.Hit) {
        if heap.count < k {
            heap.append((key, hit))
            var i = heap.count - 1
            while i > 0 {
                let parent = (i - 1) / 2
                guard heap[parent].key < heap[i].key else { break }
                heap.swapAt(parent, i)
                i = parent
            }
        } else if k > 0 && key < heap[0].key {
            heap[0] = (key, hit)
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var largest = i
                if l < k && heap[l].key > heap[largest].key { largest = l }
                if r < k && heap[r].key > heap[largest].key { largest = r }
                if largest == i { break }
                heap.swapAt(i, largest)
                i = largest
            }
        }
    }
}
