extension CatalogMatcher {
    /// The `k` smallest of `keys`, ascending: a bounded max-heap of the best seen so far, so a
    /// page of 20 out of 60,000 matches costs one comparison for most keys instead of a full sort.
    /// The keys are distinct (each holds its hit's position), so the result is the prefix that
    /// `keys.sorted()` would give.
    static func smallest(_ k: Int, of keys: [UInt64]) -> [UInt64] {
        guard k > 0 else { return [] }
        guard k < keys.count else { return keys.sorted() }
        var heap = Array(keys[0..<k])
        // Heapify (largest at the root).
        func siftDown(_ start: Int) {
            var i = start
            while true {
                let l = 2 * i + 1, r = l + 1
                var largest = i
                if l < k && heap[l] > heap[largest] { largest = l }
                if r < k && heap[r] > heap[largest] { largest = r }
                if largest == i { return }
                heap.swapAt(i, largest)
                i = largest
            }
        }
        for i in stride(from: k / 2 - 1, through: 0, by: -1) { siftDown(i) }
        for key in keys[k...] where key < heap[0] {
            heap[0] = key
            siftDown(0)
        }
        heap.sort()
        return heap
    }
}

extension CatalogMatcher {
    /// Keeps a value the optimizer would otherwise drop (the loads that bring texts into cache).
    @inline(never) static func keep(_ value: UInt8) {
        if value == 0xA5 && sink.isEmpty { sink = "" }
    }
    nonisolated(unsafe) private static var sink = "x"
}
