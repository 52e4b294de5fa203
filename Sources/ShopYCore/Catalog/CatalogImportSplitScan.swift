import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CatalogImportParsing {
    /// From how many bytes a bare array's scan is split in two (tests set less).
    nonisolated(unsafe) static var splitScanAtLeast = 8 << 20

    /// The second half of a large array's scan, on another thread: from a guessed element start
    /// past the middle (a `{` after a `}` and a comma), every element to the array's end, each an
    /// ordinary item (`ItemScan.remaining`). The first half's own scan confirms the guess by
    /// reaching that place at an element's start (`ItemScan.elements`). A guess inside a string,
    /// an element the fast path does not take, or bytes that do not parse leave the first half
    /// to go on alone, as if there had been no split: the same items, skips and errors either way.
    final class SplitScan: @unchecked Sendable {
        /// Where the second half starts.
        let from: Int
        private let buffer: UnsafeBufferPointer<UInt8>
        private let capacity: Int
        private let done = DispatchSemaphore(value: 0)
        /// Written by the second half's thread before `done` is signalled, read after.
        private var result: Later?
        private var joined = false

        /// The second half's items, the store of what it decoded, and where the array ended.
        struct Later {
            var items: CatalogRawRecords
            var store: CatalogByteStore
            var end: Int
        }

        private init(buffer: UnsafeBufferPointer<UInt8>, from: Int, capacity: Int) {
            self.buffer = buffer
            self.from = from
            self.capacity = capacity
        }

        /// The second half started, or nil when no element start is found past the middle.
        static func start(_ buffer: UnsafeBufferPointer<UInt8>, capacity: Int) -> SplitScan? {
            guard let from = guess(buffer) else { return nil }
            let split = SplitScan(buffer: buffer, from: from, capacity: capacity)
            DispatchQueue.global(qos: .userInitiated).async {
                split.run()
                split.done.signal()
            }
            return split
        }

        /// Waits for the second half (the first call; later ones return at once) and gives what
        /// it took, nil when it stopped short. Called from the first half's thread only; the
        /// buffer and the store may go only after it has returned.
        @discardableResult func join() -> Later? {
            if !joined {
                done.wait()
                joined = true
            }
            return result
        }

        private func run() {
            let store = CatalogByteStore()
            var parser = JSONParser(buffer, at: from)
            parser.validatesUTF8 = false  // checked beside the scan, as the first half's bytes
            parser.depth = 1  // inside the array
            var scan = ItemScan(buffer: buffer, store: store, items: CatalogRawRecords(store: store, capacity: capacity))
            do throws(JSONParseError) {
                guard try scan.remaining(&parser) else { return }
            } catch {
                return
            }
            result = Later(items: scan.items, store: store, end: parser.index)
        }

        /// The first `{` past the middle that follows a `}`, a comma and nothing but whitespace,
        /// looked for in the next MiB; nil when there is none.
        static func guess(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            guard let base = bytes.baseAddress else { return nil }
            func space(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
            var i = bytes.count / 2
            let limit = min(bytes.count, i + (1 << 20))
            while i < limit, let found = memchr(base + i, 0x7D, limit - i) {
                let brace = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                i = brace + 1
                var j = i
                while j < bytes.count && space(bytes[j]) { j += 1 }
                guard j < bytes.count, bytes[j] == UInt8(ascii: ",") else { continue }
                j += 1
                while j < bytes.count && space(bytes[j]) { j += 1 }
                if j < bytes.count && bytes[j] == UInt8(ascii: "{") { return j }
            }
            return nil
        }
    }
}
