// Pictures for the pictures' tests, made in code rather than stored.

/// Black grayscale PNGs of any size, made here: zlib's format by hand (one fixed-Huffman block:
/// a zero, then matches of 258 bytes at distance 1, 13 bits each), so that a bomb of 8192 × 8192
/// (67 MB of pixels) is a few hundred KB and never held decoded by the test itself.
public enum ZeroPNG {
    public static func make(width: Int, height: Int) -> [UInt8] {
        let raw = height * (width + 1)  // each row: filter byte 0, then its gray bytes
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        let literalZero = (code: 0b0011_0000, length: 8)
        bits.huffman(literalZero.code, length: literalZero.length)
        // Length 258 is code 285 (8 bits: 11000101, no extra bits); distance 1 is code 0 (5 bits).
        for _ in 0..<((raw - 1) / 258) {
            bits.huffman(0b1100_0101, length: 8)
            bits.huffman(0, length: 5)
        }
        for _ in 0..<((raw - 1) % 258) { bits.huffman(literalZero.code, length: literalZero.length) }
        bits.huffman(0, length: 7)  // end of block (256)
        let adler = UInt32(raw % 65521) << 16 | 1  // a = 1 + the sum of the bytes (0), b = the sum of each a
        let zlib = [0x78, 0x01] + bits.flushed + be32(adler)
        var ihdr = be32(UInt32(width)) + be32(UInt32(height))
        ihdr += [8, 0, 0, 0, 0]  // 8 bits, grayscale, deflate, adaptive filters, not interlaced
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    static func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        let table: [UInt32] = (0..<256).map { n in
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            return c
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// Deflate's bit order: values least significant bit first, Huffman codes most significant first.
    struct BitWriter {
        var bytes: [UInt8] = []
        var pending: UInt32 = 0
        var used = 0

        mutating func write(_ value: Int, count: Int) {
            pending |= UInt32(value) << UInt32(used)
            used += count
            while used >= 8 {
                bytes.append(UInt8(pending & 0xFF))
                pending >>= 8
                used -= 8
            }
        }

        mutating func huffman(_ code: Int, length: Int) {
            var reversed = 0
            for i in 0..<length where code & (1 << i) != 0 { reversed |= 1 << (length - 1 - i) }
            write(reversed, count: length)
        }

        /// The stream so far, its last byte padded with zeros.
        var flushed: [UInt8] { used > 0 ? bytes + [UInt8(pending & 0xFF)] : bytes }
    }
}
