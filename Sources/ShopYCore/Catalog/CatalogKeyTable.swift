extension CatalogIndexBuilder {
    /// Keys to dense numbers (open addressing, linear probing), with each key's posting count
    /// and the last ordinal that noted it, and the dense numbers noted, in order: in memory it
    /// manages itself (the hot loop of an import runs without bounds or uniqueness checks).
    final class KeyTable {
        private var slots: UnsafeMutablePointer<Int32>
        private var mask: Int
        private var capacity = 1 << 11
        private(set) var count = 0
        private(set) var keys: UnsafeMutablePointer<UInt64>
        private(set) var counts: UnsafeMutablePointer<UInt32>
        private var lastSeen: UnsafeMutablePointer<Int32>
        private(set) var occurrences: UnsafeMutablePointer<UInt32>
        private(set) var occurrenceCount = 0
        private var occurrenceCapacity: Int

        init(occurrenceCapacity: Int) {
            slots = .allocate(capacity: 1 << 12)
            slots.initialize(repeating: -1, count: 1 << 12)
            mask = (1 << 12) - 1
            keys = .allocate(capacity: capacity)
            counts = .allocate(capacity: capacity)
            lastSeen = .allocate(capacity: capacity)
            self.occurrenceCapacity = max(occurrenceCapacity, 16)
            occurrences = .allocate(capacity: self.occurrenceCapacity)
        }

        deinit {
            slots.deallocate()
            keys.deallocate()
            counts.deallocate()
            lastSeen.deallocate()
            occurrences.deallocate()
        }

        @inline(__always) private func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask }

        /// Notes `key` for the item `ordinal` (once per item).
        @inline(__always) func note(_ key: UInt64, ordinal: Int32) {
            var s = slot(key)
            var dense: Int
            while true {
                let d = slots[s]
                if d < 0 {
                    dense = insert(key, at: s)
                    break
                }
                if keys[Int(d)] == key {
                    dense = Int(d)
                    break
                }
                s = (s + 1) & mask
            }
            guard lastSeen[dense] != ordinal else { return }
            lastSeen[dense] = ordinal
            // Unchecked: a key is counted at most once per item, and an index holds fewer than
            // Int32.max items (`build(count:)` checks), so no count wraps; a dense number fits an
            // Int32 (`insert` stores it as one).
            counts[dense] &+= 1
            if occurrenceCount == occurrenceCapacity { growOccurrences() }
            occurrences[occurrenceCount] = UInt32(truncatingIfNeeded: dense)
            occurrenceCount &+= 1
        }

        /// The dense number of `key` (added when new), its posting count raised by `count`.
        func merge(_ key: UInt64, count more: UInt32) -> Int {
            var s = slot(key)
            while true {
                let d = slots[s]
                if d < 0 { break }
                if keys[Int(d)] == key {
                    counts[Int(d)] += more
                    return Int(d)
                }
                s = (s + 1) & mask
            }
            let dense = insert(key, at: s)
            counts[dense] = more
            return dense
        }

        private func insert(_ key: UInt64, at s: Int) -> Int {
            if count == capacity {
                capacity *= 2
                keys = Self.grown(keys, count: count, to: capacity)
                counts = Self.grown(counts, count: count, to: capacity)
                lastSeen = Self.grown(lastSeen, count: count, to: capacity)
            }
            let dense = count
            slots[s] = Int32(dense)
            keys[dense] = key
            counts[dense] = 0
            lastSeen[dense] = -1
            count += 1
            if count * 2 > mask + 1 { grow() }
            return dense
        }

        private static func grown<T>(_ old: UnsafeMutablePointer<T>, count: Int, to capacity: Int) -> UnsafeMutablePointer<T> {
            let new = UnsafeMutablePointer<T>.allocate(capacity: capacity)
            new.moveInitialize(from: old, count: count)
            old.deallocate()
            return new
        }

        private func growOccurrences() {
            occurrenceCapacity *= 2
            occurrences = Self.grown(occurrences, count: occurrenceCount, to: occurrenceCapacity)
        }

        private func grow() {
            let size = (mask + 1) * 2
            slots.deallocate()
            slots = .allocate(capacity: size)
            slots.initialize(repeating: -1, count: size)
            mask = size - 1
            for dense in 0..<count {
                var s = slot(keys[dense])
                while slots[s] >= 0 { s = (s + 1) & mask }
                slots[s] = Int32(dense)
            }
        }
    }
}
