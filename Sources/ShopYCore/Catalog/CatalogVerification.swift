import Foundation

/// The verification of a search's candidates: each candidate's record and text read, the
/// filters applied and the match scored. At a million items this is bound by memory latency
/// (each candidate's record and text are cache and TLB misses in a mapped index), so many
/// candidates are split into contiguous parts verified at once on several cores, whose hits are
/// joined in the parts' order: the same hits in the same order as one pass gives.
extension CatalogMatcher {
    /// How the candidates of one index are verified: in `parts` contiguous runs at once (1: on
    /// the calling thread). Tests set their own.
    struct Parallelism: Sendable {
        /// The most parts a search uses.
        var maximumParts: Int
        /// The fewest candidates each part gets (fewer candidates take fewer parts: a thread's
        /// hand-off costs tens of microseconds, a candidate about a third of one).
        var candidatesPerPart: Int
        /// Whether the parts are also at most the processors this process may run on.
        var atMostTheProcessors = false

        /// Two parts on a machine with two cores or more, from 2 × 8,192 candidates: never for
        /// the embedded catalog's 340 items (nor does their search ask how many cores there are).
        static let automatic = Parallelism(maximumParts: 2, candidatesPerPart: 8_192, atMostTheProcessors: true)
        static let sequential = Parallelism(maximumParts: 1, candidatesPerPart: Int.max)

        /// The number of parts for this many candidates.
        func parts(for candidates: Int) -> Int {
            guard maximumParts > 1, candidatesPerPart > 0, candidates / candidatesPerPart > 1 else { return 1 }
            let most = atMostTheProcessors ? min(maximumParts, Parallelism.processors) : maximumParts
            return max(1, min(most, candidates / candidatesPerPart))
        }

        /// Asked once, by the first search with many candidates.
        static let processors = ProcessInfo.processInfo.activeProcessorCount
    }

    /// Appends the hits of these candidates of `segment` (its `s`th), in the candidates' order.
    func verify(_ segment: Segment, _ s: Int, _ candidates: [Int], into hits: inout [Hit]) {
        let parts = parallelism.parts(for: candidates.count)
        // At most one hit per candidate: room for all of them once, so the hits are written
        // where they stay (no growing copies; a page is touched only when a hit is written).
        guard parts > 1 else {
            hits.reserveCapacity(hits.count + candidates.count)
            verify(segment, s, candidates[...], window: CatalogCandidates.window, releasingUpTo: segment.index.count) { hit, _ in hits.append(hit) }
            return
        }
        // Contiguous runs of equal size, each writing its hits from its first candidate's place
        // (after the hits before); each releases the pages behind it up to where the next run
        // starts (the last one: to the end of the index). The runs' hits are then moved
        // together, in order.
        let bounds = (0...parts).map { candidates.count * $0 / parts }
        // Each part's window is a share of one: the parts keep no more resident than one pass.
        let window = CatalogCandidates.window / parts
        let index = segment.index
        let before = hits.count
        hits = Array(unsafeUninitializedCapacity: before + candidates.count) { buffer, initialized in
            _ = buffer.initialize(from: hits)
            let out = PartOutput(UnsafeMutableBufferPointer(rebasing: buffer[before...]), parts: parts)
            DispatchQueue.concurrentPerform(iterations: parts) { p in
                var at = bounds[p]
                let end = p + 1 < parts ? candidates[bounds[p + 1]] : index.count
                verify(segment, s, candidates[bounds[p]..<bounds[p + 1]], window: window, releasingUpTo: end) { hit, _ in
                    out.write(hit, at: at)
                    at += 1
                }
                out.finish(part: p, count: at - bounds[p])
            }
            initialized = before + out.join(bounds: bounds)
        }
    }

    /// Keeps in `best` the best hits of these candidates of `segment` (its `s`th) and counts
    /// them all, in parts as `verify` does. `order` is the place of the segment's first
    /// candidate among the search's: a tie goes to the earlier candidate, as in catalog order.
    func verifyBest(_ segment: Segment, _ s: Int, _ candidates: [Int], order: Int, into best: inout CatalogBestHits) {
        let parts = parallelism.parts(for: candidates.count)
        guard parts > 1 else {
            verify(segment, s, candidates[...], window: CatalogCandidates.window, releasingUpTo: segment.index.count) { hit, at in
                best.add(hit, order: order + at)
            }
            return
        }
        let bounds = (0...parts).map { candidates.count * $0 / parts }
        let window = CatalogCandidates.window / parts
        let index = segment.index
        let kept = PartBest(parts: parts), k = best.k
        DispatchQueue.concurrentPerform(iterations: parts) { p in
            var mine = CatalogBestHits(keeping: k)
            let end = p + 1 < parts ? candidates[bounds[p + 1]] : index.count
            verify(segment, s, candidates[bounds[p]..<bounds[p + 1]], window: window, releasingUpTo: end) { hit, at in
                mine.add(hit, order: order + at)
            }
            kept.set(part: p, mine)
        }
        for p in 0..<parts { best.merge(kept[p]) }
    }

    /// Verifies `run` (ordinals below `index.count`), `window` ordinals at a time: what
    /// lies behind each window is handed back to the kernel as it goes, so a search of a million
    /// items keeps a bounded part of the mapped index resident. The pages from the run's first
    /// ordinal up to `end` are this run's to release (but the unit holding its first ordinal,
    /// for a run after another: `CatalogIndex.releasePages`).
    /// (Mapping each window's pages ahead in one call, MADV_POPULATE_READ, measured slower than
    /// letting the batched reads fault them in: 44 against 34 ms at a million items.)
    private func verify(_ segment: Segment, _ s: Int, _ run: ArraySlice<Int>, window: Int, releasingUpTo end: Int, _ found: (Hit, Int) -> Void) {
        guard let first = run.first else { return }
        let index = segment.index
        // The first run releases from the index's start, the others from their first ordinal.
        let start = run.startIndex == 0 ? 0 : first
        var released = start, windowEnd = released
        func release(_ ordinals: Range<Int>) {
            index.releasePages(ordinals: ordinals, keepingFirstUnit: run.startIndex != 0 && ordinals.lowerBound == start)
        }
        var from = run.startIndex
        while from < run.endIndex {
            let ordinal = run[from]
            if ordinal >= windowEnd {
                release(released..<max(released, ordinal))
                released = max(released, ordinal)
                windowEnd = ordinal + window
            }
            // The window's candidates (a damaged index's may run backwards within it).
            var to = from + 1
            while to < run.endIndex && run[to] < windowEnd { to += 1 }
            scoreBatch(segment, s, run[from..<to], found)
            from = to
        }
        if end > released { release(released..<min(end, index.count)) }
    }

    /// In chunks, each in three passes: the records read, the texts' first lines touched, then
    /// the filters and the scoring. Each of the first two passes is a run of independent loads
    /// the processor overlaps, rather than one cache miss at a time between scorings.
    /// `found` is given each hit and its candidate's place in the candidates (`batch`'s indices).
    private func scoreBatch(_ segment: Segment, _ s: Int, _ batch: ArraySlice<Int>, _ found: (Hit, Int) -> Void) {
        let index = segment.index
        var records: [CatalogIndex.Record?] = []
        records.reserveCapacity(256)
        var from = batch.startIndex
        while from < batch.endIndex {
            let chunk = batch[from..<min(batch.endIndex, from + 256)]
            from = chunk.endIndex
            records.removeAll(keepingCapacity: true)
            // The chunk's records brought into cache first, in a loop of loads alone (many misses
            // in flight at once), the first and last byte of each (a record may straddle lines).
            var loaded: UInt8 = 0
            let first = index.layout.records
            for ordinal in chunk {
                let at = first + ordinal * CatalogIndexFormat.recordSize
                loaded &+= index.byte(at) &+ index.byte(at + CatalogIndexFormat.recordSize - 1)
            }
            CatalogMatcher.keep(loaded)
            for ordinal in chunk { records.append(index.record(ordinal)) }
            var touched: UInt8 = 0
            for case let record? in records {
                touched &+= index.byte(record.title.lowerBound) &+ index.byte(record.title.lowerBound + 64) &+ index.byte(record.fields.lowerBound)
            }
            CatalogMatcher.keep(touched)
            for (at, record) in zip(chunk.indices, records) {
                let ordinal = chunk[at]
                guard let record, !segment.hidden(ordinal) else { continue }
                if request.naverPayOnly && !record.flags.contains(.naverPay) { continue }
                if request.exclude.contains(.used) && record.flags.contains(.used) { continue }
                if request.exclude.contains(.rental) && record.flags.contains(.rental) { continue }
                if request.exclude.contains(.cbshop) && record.flags.contains(.crossBorder) { continue }
                guard let score = score(index, record) else { continue }
                found(Hit(segment: s, ordinal: ordinal, score: score, global: segment.base + ordinal, price: record.price), at)
            }
        }
    }
}

/// The buffer the parts of a parallel verification write their hits into: part `p` writes from
/// its first candidate's place onwards (it has at most one hit per candidate, so it never reaches
/// the next part's place), and its count once, when done. They are read and moved together after
/// every part has returned (`concurrentPerform` returns after its iterations): no place is
/// written by two parts, nor read while written.
private final class PartOutput: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<CatalogMatcher.Hit>
    private let counts: UnsafeMutableBufferPointer<Int>

    init(_ buffer: UnsafeMutableBufferPointer<CatalogMatcher.Hit>, parts: Int) {
        self.buffer = buffer
        counts = .allocate(capacity: parts)
        counts.initialize(repeating: 0)
    }

    deinit { counts.deallocate() }

    @inline(__always) func write(_ hit: CatalogMatcher.Hit, at place: Int) {
        (buffer.baseAddress! + place).initialize(to: hit)
    }

    func finish(part: Int, count: Int) { counts[part] = count }

    /// Moves each part's hits to follow the previous part's; the number of hits.
    func join(bounds: [Int]) -> Int {
        var total = 0
        for p in 0..<counts.count {
            let count = counts[p]
            if total != bounds[p] && count > 0 {
                (buffer.baseAddress! + total).moveInitialize(from: buffer.baseAddress! + bounds[p], count: count)
            }
            total += count
        }
        return total
    }
}

/// Each part's best hits of a parallel relevance verification: part `p` sets its own once, when
/// done; they are read after every part has returned (`concurrentPerform` returns after its
/// iterations), so no place is written by two parts nor read while written.
private final class PartBest: @unchecked Sendable {
    private let kept: UnsafeMutableBufferPointer<CatalogBestHits>

    init(parts: Int) {
        kept = .allocate(capacity: parts)
        kept.initialize(repeating: CatalogBestHits(keeping: 0))
    }

    deinit {
        _ = kept.deinitialize()
        kept.deallocate()
    }

    func set(part: Int, _ best: CatalogBestHits) { kept[part] = best }

    subscript(part: Int) -> CatalogBestHits { kept[part] }
}

extension CatalogMatcher {
    /// Keeps a value the optimizer would otherwise drop (the loads that bring texts into cache).
    @inline(never) static func keep(_ value: UInt8) {
        if value == 0xA5 && sink.isEmpty { sink = "" }
    }
    nonisolated(unsafe) private static var sink = "x"
}
