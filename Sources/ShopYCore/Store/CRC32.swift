/// CRC-32 (IEEE 802.3, the polynomial of zlib and PNG), for the journal's self-checking lines and
/// the likes index's links and content key.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { checksum($0) }
    }

    static func checksum(_ buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
        finish(update(start, buffer))
    }

    /// A checksum of several pieces: `finish(update(update(start, a), b))` is that of a + b.
    static let start: UInt32 = 0xFFFF_FFFF

    static func update(_ crc: UInt32, _ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { update(crc, $0) }
    }

    static func update(_ crc: UInt32, _ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { update(crc, $0) }
    }

    static func update(_ crc: UInt32, _ buffer: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var crc = crc
        table.withUnsafeBufferPointer { table in
            for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc
    }

    static func finish(_ crc: UInt32) -> UInt32 { crc ^ 0xFFFF_FFFF }

    /// Eight lowercase hex digits.
    static func hex(_ value: UInt32) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 8 - text.count) + text
    }
}
