import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// Which snapshot file an index was built from: its generation and the file's identity, so that
/// any other likes.json (replaced, edited by hand, restored from a backup) does not match.
struct SnapshotIdentity: Equatable {
    var generation: String?
    var size: Int
    var inode: UInt64
    var modified: String

    init(generation: String?, info: stat) {
        self.generation = generation
        size = Int(info.st_size)
        inode = UInt64(info.st_ino)
        #if canImport(Darwin)
        modified = "\(info.st_mtimespec.tv_sec).\(info.st_mtimespec.tv_nsec)"
        #else
        modified = "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        #endif
    }

    init(generation: String?, size: Int, inode: UInt64, modified: String) {
        self.generation = generation
        self.size = size
        self.inode = inode
        self.modified = modified
    }

    var json: JSONValue {
        var o = JSONObject()
        o.appendUnchecked("generation", .string(orNull: generation))
        o.appendUnchecked("size", .int(size))
        o.appendUnchecked("inode", .string(String(inode)))
        o.appendUnchecked("modified", .string(modified))
        return .object(o)
    }
}

/// `likes.index`: derived from the snapshot, so that a search or a like reads ids, not likes.
///
///     {"index":1,"snapshot":{"generation":…,"size":…,"inode":"…","modified":"…"},"count":N,"crc":"8 hex digits"}
///     "ID"<TAB>OFFSET<TAB>LENGTH
///
/// One line a like of the snapshot, sorted by the id's JSON string (bytes), with where the like's
/// object is in likes.json. It is rebuilt whenever it does not match the snapshot it names or
/// its body does not match the header's CRC-32 (a line deleted or moved by hand: the binary
/// search would miss ids); losing it loses nothing.
package struct LikesIndex {
    static let version = 1

    /// The file's bytes: mapped, so that a lookup touches only the pages its binary search
    /// reads, not the whole index (2.7 MB at 100,000 likes).
    let storage: IndexBytes
    let bodyStart: Int
    let identity: SnapshotIdentity
    let count: Int

    struct Entry {
        var id: String
        var offset: Int
        var length: Int
    }

    static func key(_ id: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.writeString(id)
        return writer.bytes
    }

    static func build(_ entries: [Entry], identity: SnapshotIdentity) -> [UInt8] {
        var out: [UInt8] = []
        let keyed = entries.map { (key: key($0.id), entry: $0) }.sorted { a, b in
            a.key == b.key ? a.entry.offset < b.entry.offset : a.key.lexicographicallyPrecedes(b.key)
        }
        out.reserveCapacity(out.count + keyed.reduce(0) { $0 + $1.key.count + 24 })
        for (key, entry) in keyed {
            out += key
            out += Array("\t\(entry.offset)\t\(entry.length)\n".utf8)
        }
        var header = JSONObject()
        header.appendUnchecked("index", .int(version))
        header.appendUnchecked("snapshot", identity.json)
        header.appendUnchecked("count", .int(entries.count))
        header.appendUnchecked("crc", .string(CRC32.hex(CRC32.checksum(out[...]))))  // of the body: a tampered index is stale
        return JSONWriter.serialize(.object(header)) + [0x0A] + out
    }

    /// Nil when the bytes are not an index this shopy can read.
    static func parse(_ bytes: [UInt8]) -> LikesIndex? { parse(IndexBytes(bytes)) }

    static func parse(_ storage: IndexBytes) -> LikesIndex? {
        let bytes = storage.buffer
        guard let end = bytes.prefix(4096).firstIndex(of: 0x0A), bytes.last == 0x0A,
              let value = try? JSONParser.parse(bytes[..<end]), case .object(let header) = value,
              header["index"]?.intValue == version, let count = header["count"]?.intValue,
              case .object(let snapshot)? = header["snapshot"],
              let size = snapshot["size"]?.intValue, let inode = snapshot["inode"]?.stringValue.flatMap({ UInt64($0) }),
              let modified = snapshot["modified"]?.stringValue,
              let crc = header["crc"]?.stringValue.flatMap({ UInt32($0, radix: 16) }),
              CRC32.checksum(UnsafeBufferPointer(rebasing: bytes[(end + 1)...])) == crc else { return nil }
        let identity = SnapshotIdentity(generation: snapshot["generation"]?.stringValue, size: size, inode: inode, modified: modified)
        return LikesIndex(storage: storage, bodyStart: end + 1, identity: identity, count: count)
    }

    /// Where the (first) like of `id` is in the snapshot: a binary search over the lines.
    func lookup(_ id: String) -> (offset: Int, length: Int)? {
        let target = LikesIndex.key(id)
        let buffer = storage.buffer
        return { () -> (offset: Int, length: Int)? in
            // Lower bound over byte positions: `low` is always the start of a line.
            var low = bodyStart, high = buffer.count
            while low < high {
                var start = low + (high - low) / 2
                while start > low && buffer[start - 1] != 0x0A { start -= 1 }
                var end = start
                while end < buffer.count && buffer[end] != 0x0A { end += 1 }
                if compare(buffer, start, target) < 0 { low = end + 1 } else { high = start }
            }
            guard low < buffer.count, compare(buffer, low, target) == 0 else { return nil }
            // KEY\tOFFSET\tLENGTH
            var i = low + target.count + 1
            func number() -> Int? {
                var value = 0, digits = 0
                while i < buffer.count, buffer[i] >= 0x30, buffer[i] <= 0x39, digits < 18 {
                    value = value * 10 + Int(buffer[i] - 0x30)
                    i += 1
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            guard let offset = number(), i < buffer.count, buffer[i] == 0x09 else { return nil }
            i += 1
            guard let length = number() else { return nil }
            return (offset, length)
        }()
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
