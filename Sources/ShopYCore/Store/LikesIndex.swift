import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// What an index was built from: the content of one likes.json — its generation, its size and
/// the CRC-32 of all its bytes — so that a copy, a restored backup or a synced store keeps its
/// index, and any other likes.json (replaced, edited by hand) does not match.
///
/// Checking the CRC means reading the whole snapshot, so the index also notes where it last
/// found that content (`seen`: the file's inode and modification time). While likes.json is
/// still that file, the content is taken as checked; after a copy it is checked once, and the
/// index is written again with the new `seen` (see `LikesIndexUpkeep`).
struct SnapshotKey: Equatable {
    var generation: String
    var size: Int
    var crc: UInt32

    var json: JSONValue {
        var o = JSONObject()
        o.appendUnchecked("generation", .string(generation))
        o.appendUnchecked("size", .int(size))
        o.appendUnchecked("crc", .string(CRC32.hex(crc)))
        return .object(o)
    }
}

/// The file a snapshot was last found in (see `SnapshotKey`).
struct SnapshotSeen: Equatable {
    var inode: UInt64
    var modified: String

    init(_ info: stat) {
        inode = UInt64(info.st_ino)
        #if canImport(Darwin)
        modified = "\(info.st_mtimespec.tv_sec).\(info.st_mtimespec.tv_nsec)"
        #else
        modified = "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        #endif
    }

    init(inode: UInt64, modified: String) {
        self.inode = inode
        self.modified = modified
    }

    var json: JSONValue {
        var o = JSONObject()
        o.appendUnchecked("inode", .string(String(inode)))
        o.appendUnchecked("modified", .string(modified))
        return .object(o)
    }
}

/// `likes.index`: derived from the snapshot, so that a search or a like reads ids, not likes.
///
///     {"index":2,"snapshot":{"generation":…,"size":…,"crc":"…"},"seen":{"inode":"…","modified":"…"},"count":N,"last":"…"}
///     "ID"<TAB>OFFSET<TAB>LENGTH<TAB>LINK
///
/// One line a like of the snapshot, sorted by the id's JSON string (bytes), with where the like's
/// object is in likes.json. Each line's LINK is the CRC-32 of the previous line's key, a newline
/// and its own key (the first line's: of a newline and its key), and `last` is that of the last
/// key: so a lookup proves its own answer from the two lines it ends between, without reading
/// the rest of the index — a line deleted, moved or edited by hand there breaks a link, and the
/// index is then not trusted (it is rebuilt). Losing it loses nothing.
package struct LikesIndex {
    static let version = 2

    /// The file's bytes: mapped, so that a lookup touches only the pages its binary search
    /// reads, not the whole index (3.6 MB at 100,000 likes).
    let storage: IndexBytes
    let bodyStart: Int
    let key: SnapshotKey
    let seen: SnapshotSeen
    let count: Int
    let last: UInt32

    struct Entry {
        var id: String
        var offset: Int
        var length: Int
    }

    /// What a lookup found, checked by the links around it.
    enum Lookup: Equatable {
        case found(offset: Int, length: Int)
        case absent
        /// The lines it ended on do not link up: the index was changed by hand.
        case broken
    }

    static func key(_ id: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.writeString(id)
        return writer.bytes
    }

    static func link(_ previous: ArraySlice<UInt8>, _ key: ArraySlice<UInt8>) -> UInt32 {
        CRC32.finish(CRC32.update(CRC32.update(CRC32.update(CRC32.start, previous), [0x0A]), key))
    }

    static func build(_ entries: [Entry], key snapshot: SnapshotKey, seen: SnapshotSeen) -> [UInt8] {
        var out: [UInt8] = []
        let keyed = entries.map { (key: key($0.id), entry: $0) }.sorted { a, b in
            a.key == b.key ? a.entry.offset < b.entry.offset : a.key.lexicographicallyPrecedes(b.key)
        }
        out.reserveCapacity(keyed.reduce(0) { $0 + $1.key.count + 34 })
        var previous: [UInt8] = []
        for (key, entry) in keyed {
            out += key
            out += Array("\t\(entry.offset)\t\(entry.length)\t\(CRC32.hex(link(previous[...], key[...])))\n".utf8)
            previous = key
        }
        var header = JSONObject()
        header.appendUnchecked("index", .int(version))
        header.appendUnchecked("snapshot", snapshot.json)
        header.appendUnchecked("seen", seen.json)
        header.appendUnchecked("count", .int(keyed.count))
        header.appendUnchecked("last", .string(CRC32.hex(CRC32.checksum(previous[...]))))
        return JSONWriter.serialize(.object(header)) + [0x0A] + out
    }

    /// The same index noting another file of the same content (the body as it is).
    func reseen(_ seen: SnapshotSeen) -> [UInt8] {
        var header = JSONObject()
        header.appendUnchecked("index", .int(LikesIndex.version))
        header.appendUnchecked("snapshot", key.json)
        header.appendUnchecked("seen", seen.json)
        header.appendUnchecked("count", .int(count))
        header.appendUnchecked("last", .string(CRC32.hex(last)))
        return JSONWriter.serialize(.object(header)) + [0x0A] + Array(UnsafeBufferPointer(rebasing: storage.buffer[bodyStart...]))
    }

    /// Bytes in memory, checked whole: every line in order, every link, the count and the last
    /// key (what `doctor` and tests ask); nil when they are not an index this shopy reads.
    static func parse(_ bytes: [UInt8]) -> LikesIndex? {
        guard let index = parseHeader(IndexBytes(bytes)), index.isWhole else { return nil }
        return index
    }

    /// How an index file stands against the one that would be built now (`doctor`).
    package enum Comparison {
        /// It is that index.
        case same
        /// The same, noted for another file of this content (a copy): the next command notes this one.
        case noted
        /// Built from other content, or not an index this shopy reads (edited, old version).
        case stale
        /// For this content, but not what it holds: its lines differ.
        case mismatched
    }

    package static func compare(_ actual: [UInt8], with expected: [UInt8]) -> Comparison {
        guard let found = parse(actual), let wanted = parse(expected), found.key == wanted.key else { return .stale }
        guard found.body.elementsEqual(wanted.body) else { return .mismatched }
        return found.seen == wanted.seen ? .same : .noted
    }

    private var body: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: storage.buffer[bodyStart...]) }

    /// The header only: lookups check the lines they use (what every command does with the
    /// mapped file, so that it reads a few pages rather than the whole index).
    static func parseHeader(_ storage: IndexBytes) -> LikesIndex? {
        let bytes = storage.buffer
        guard let end = bytes.prefix(4096).firstIndex(of: 0x0A), bytes.last == 0x0A,
              let value = try? JSONParser.parse(UnsafeBufferPointer(rebasing: bytes[..<end])), case .object(let header) = value,
              header["index"]?.intValue == version, let count = header["count"]?.intValue, count >= 0,
              let last = header["last"]?.stringValue.flatMap({ UInt32($0, radix: 16) }),
              case .object(let snapshot)? = header["snapshot"], let generation = snapshot["generation"]?.stringValue,
              let size = snapshot["size"]?.intValue, let crc = snapshot["crc"]?.stringValue.flatMap({ UInt32($0, radix: 16) }),
              case .object(let seen)? = header["seen"], let inode = seen["inode"]?.stringValue.flatMap({ UInt64($0) }),
              let modified = seen["modified"]?.stringValue else { return nil }
        return LikesIndex(storage: storage, bodyStart: end + 1, key: SnapshotKey(generation: generation, size: size, crc: crc),
                          seen: SnapshotSeen(inode: inode, modified: modified), count: count, last: last)
    }

    /// Every line in order and linked, `count` of them, the last one `last`.
    var isWhole: Bool {
        let buffer = storage.buffer
        var start = bodyStart
        var previous: ArraySlice<UInt8> = []
        var lines = 0
        while start < buffer.count {
            guard let line = self.line(at: start), previous.isEmpty && lines == 0 || previous.lexicographicallyPrecedes(line.key),
                  line.link == LikesIndex.link(previous, line.key) else { return false }
            previous = line.key
            lines += 1
            start = line.end + 1
        }
        return lines == count && CRC32.checksum(previous) == last
    }

    /// The line starting at `start`: its key, place, link and where it ends (its newline).
    private func line(at start: Int) -> (key: ArraySlice<UInt8>, offset: Int, length: Int, link: UInt32, end: Int)? {
        let buffer = storage.buffer
        var i = start
        while i < buffer.count && buffer[i] != 0x09 && buffer[i] != 0x0A { i += 1 }
        guard i < buffer.count, buffer[i] == 0x09, i > start else { return nil }
        let key = ArraySlice(UnsafeBufferPointer(rebasing: buffer[start..<i]))
        i += 1
        func number(radix: Int, digits maximum: Int) -> Int? {
            var value = 0, digits = 0
            while i < buffer.count, digits < maximum {
                let b = buffer[i]
                let digit: Int
                if b >= 0x30 && b <= 0x39 {
                    digit = Int(b - 0x30)
                } else if radix == 16 && b >= 0x61 && b <= 0x66 {
                    digit = Int(b - 0x61) + 10
                } else {
                    break
                }
                value = value * radix + digit
                i += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        guard let offset = number(radix: 10, digits: 18), i < buffer.count, buffer[i] == 0x09 else { return nil }
        i += 1
        guard let length = number(radix: 10, digits: 18), i < buffer.count, buffer[i] == 0x09 else { return nil }
        i += 1
        guard let link = number(radix: 16, digits: 8), i < buffer.count, buffer[i] == 0x0A else { return nil }
        return (key, offset, length, UInt32(link), i)
    }

    /// The start of the line before the one at `start` (nil for the first line).
    private func lineBefore(_ start: Int) -> Int? {
        guard start > bodyStart else { return nil }
        let buffer = storage.buffer
        var i = start - 1  // the previous line's newline
        while i > bodyStart && buffer[i - 1] != 0x0A { i -= 1 }
        return i
    }

    /// Where the like of `id` is in the snapshot: a binary search over the lines, its answer
    /// checked by the links of the line it ends on (and the one before).
    func find(_ id: String) -> Lookup {
        let target = LikesIndex.key(id)
        let buffer = storage.buffer
        // Lower bound over byte positions: `low` is always the start of a line.
        var low = bodyStart, high = buffer.count
        while low < high {
            var start = low + (high - low) / 2
            while start > low && buffer[start - 1] != 0x0A { start -= 1 }
            var end = start
            while end < buffer.count && buffer[end] != 0x0A { end += 1 }
            if compare(buffer, start, target) < 0 { low = end + 1 } else { high = start }
        }
        let previous = lineBefore(low).flatMap { line(at: $0) }
        guard lineBefore(low) == nil || previous != nil else { return .broken }
        let previousKey = previous?.key ?? []
        guard low < buffer.count else {
            // After the last line: it must be the last one the header names.
            return CRC32.checksum(previousKey) == last && (previous == nil || previousKey.lexicographicallyPrecedes(target)) ? .absent : .broken
        }
        guard let line = line(at: low), line.link == LikesIndex.link(previousKey, line.key) else { return .broken }
        guard line.key.elementsEqual(target) else {
            // Between two linked lines, one before and one after: not in the snapshot.
            return previousKey.lexicographicallyPrecedes(target) || previous == nil ? .absent : .broken
        }
        return .found(offset: line.offset, length: line.length)
    }

    /// The place of `id`, nil when absent or when the index proved broken around it.
    func lookup(_ id: String) -> (offset: Int, length: Int)? {
        if case .found(let offset, let length) = find(id) { return (offset, length) }
        return nil
    }

    /// The line at `start`'s key (up to the tab) against `target`: <0, 0, >0.
    private func compare(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ target: [UInt8]) -> Int {
        var i = start, j = 0
        while i < buffer.count && buffer[i] != 0x09 && buffer[i] != 0x0A {
            if j == target.count { return 1 }
            if buffer[i] != target[j] { return buffer[i] < target[j] ? -1 : 1 }
            i += 1
            j += 1
        }
        return j == target.count ? 0 : -1
    }
}

/// An index file's bytes, mapped read-only (or copied, for bytes in memory). The index is only
/// ever replaced by a rename, never rewritten in place, so a mapping stays valid.
final class IndexBytes: @unchecked Sendable {
    let buffer: UnsafeBufferPointer<UInt8>
    private let mapped: Bool

    init(_ bytes: [UInt8]) {
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 1))
        _ = copy.initialize(from: bytes)
        buffer = UnsafeBufferPointer(rebasing: copy[0..<bytes.count])
        mapped = false
    }

    /// The whole of `fd` mapped, or nil (empty, or mmap refused).
    init?(mapping fd: Int32, size: Int) {
        guard size > 0, let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else { return nil }
        buffer = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: size)
        mapped = true
    }

    deinit {
        if mapped {
            munmap(UnsafeMutableRawPointer(mutating: buffer.baseAddress), buffer.count)
        } else {
            UnsafeMutableBufferPointer(mutating: buffer).deallocate()
        }
    }
}
