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

        /// Two parts on a machine with two cores or more, from 2 × 8,192 candidates: never for
        /// the embedded catalog's 340 items.
        static let automatic = Parallelism(maximumParts: min(2, ProcessInfo.processInfo.activeProcessorCount), candidatesPerPart: 8_192)
        static let sequential = Parallelism(maximumParts: 1, candidatesPerPart: Int.max)

        /// The number of parts for this many candidates.
        func parts(for candidates: Int) -> Int {
            guard maximumParts > 1, candidatesPerPart > 0 else { return 1 }
            return max(1, min(maximumParts, candidates / candidatesPerPart))
        }
    }

    /// Appends the hits of these candidates of `segment` (its `s`th), in the candidates' order.
    func verify(_ segment: Segment, _ s: Int, _ candidates: [Int], into hits: inout [Hit]) {
        let parts = parallelism.parts(for: candidates.count)
        guard parts > 1 else {
            verify(segment, s, candidates[...], releasingUpTo: segment.index.count, into: &hits)
            return
        }
        // Contiguous runs of equal size; each releases the pages behind it up to where the next
        // one starts (the last one: to the end of the index).
        let bounds = (0...parts).map { candidates.count * $0 / parts }
        let results = PartResults(parts)
        let index = segment.index
        DispatchQueue.concurrentPerform(iterations: parts) { p in
            let run = candidates[bounds[p]..<bounds[p + 1]]
            let end = p + 1 < parts ? candidates[bounds[p + 1]] : index.count
            var found: [Hit] = []
            verify(segment, s, run, releasingUpTo: end, into: &found)
            results.set(p, found)
        }
        results.join(into: &hits)
    }

    /// Verifies `run` (ordinals below `index.count`), a window of the catalog at a time: what
    /// lies behind each window is handed back to the kernel as it goes, so a search of a million
    /// items keeps a bounded part of the mapped index resident. The pages from the run's first
    /// ordinal up to `end` are this run's to release.
    /// (Mapping each window's pages ahead in one call, MADV_POPULATE_READ, measured slower than
    /// letting the batched reads fault them in: 44 against 34 ms at a million items.)
    private func verify(_ segment: Segment, _ s: Int, _ run: ArraySlice<Int>, releasingUpTo end: Int, into hits: inout [Hit]) {
        guard let first = run.first else { return }
        let index = segment.index
        // The first run releases from the index's start, the others from their first ordinal.
        var released = run.startIndex == 0 ? 0 : first, windowEnd = released
        var from = run.startIndex
        while from < run.endIndex {
            let ordinal = run[from]
            if ordinal >= windowEnd {
                index.releasePages(ordinals: released..<max(released, ordinal))
                released = max(released, ordinal)
                windowEnd = ordinal + CatalogCandidates.window
            }
            // The window's candidates (a damaged index's may run backwards within it).
            var to = from + 1
            while to < run.endIndex && run[to] < windowEnd { to += 1 }
            scoreBatch(segment, s, run[from..<to], into: &hits)
            from = to
        }
        if end > released { index.releasePages(ordinals: released..<min(end, index.count)) }
    }

    /// In chunks, each in three passes: the records read, the texts' first lines touched, then
    /// the filters and the scoring. Each of the first two passes is a run of independent loads
    /// the processor overlaps, rather than one cache miss at a time between scorings.
    private func scoreBatch(_ segment: Segment, _ s: Int, _ batch: ArraySlice<Int>, into hits: inout [Hit]) {
        let index = segment.index
        var records: [CatalogIndex.Record?] = []
        records.reserveCapacity(256)
        var from = batch.startIndex
        while from < batch.endIndex {
            let chunk = batch[from..<min(batch.endIndex, from + 256)]
            from = chunk.endIndex
            records.removeAll(keepingCapacity: true)
            for ordinal in chunk { records.append(index.record(ordinal)) }
            var touched: UInt8 = 0
            for case let record? in records {
                touched &+= index.byte(record.title.lowerBound) &+ index.byte(record.title.lowerBound + 64) &+ index.byte(record.fields.lowerBound)
            }
            CatalogMatcher.keep(touched)
            for (ordinal, record) in zip(chunk, records) {
                guard let record, !segment.hidden(ordinal) else { continue }
                if request.naverPayOnly && !record.flags.contains(.naverPay) { continue }
                if request.exclude.contains(.used) && record.flags.contains(.used) { continue }
                if request.exclude.contains(.rental) && record.flags.contains(.rental) { continue }
                if request.exclude.contains(.cbshop) && record.flags.contains(.crossBorder) { continue }
                guard let score = score(index, record) else { continue }
                hits.append(Hit(segment: s, ordinal: ordinal, score: score, global: segment.base + ordinal, price: record.price))
            }
        }
    }
}

/// The hits of each part of a parallel verification: each part writes its own slot, once, and
/// they are read after every part has returned (`concurrentPerform` returns after its
/// iterations), so no slot is shared while written.
private final class PartResults: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<[CatalogMatcher.Hit]>

    init(_ parts: Int) {
        storage = .allocate(capacity: parts)
        storage.initialize(repeating: [])
    }

    deinit { storage.deinitialize().deallocate() }

    func set(_ part: Int, _ hits: [CatalogMatcher.Hit]) { storage[part] = hits }

    /// Appends every part's hits in the parts' order.
    func join(into hits: inout [CatalogMatcher.Hit]) {
        if hits.isEmpty { swap(&hits, &storage[0]) } else { hits.append(contentsOf: storage[0]) }
        for part in storage.dropFirst() { hits.append(contentsOf: part) }
    }
}
