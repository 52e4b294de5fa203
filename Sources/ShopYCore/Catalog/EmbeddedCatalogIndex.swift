/// The embedded catalog as searches read it: the items' JSON in place (a static literal) and the
/// index `Scripts/embed-catalog.py` precomputed from them. Nothing is parsed or built at start:
/// the index's base64 is decoded into memory on the first search (a quarter of a millisecond),
/// and only the page's items are ever decoded.
enum EmbeddedCatalog {
    static let part = CatalogPart(json: json, index: index)

    static let json = MappedBytes(
        buffer: UnsafeRawBufferPointer(start: embeddedCatalogJSON.utf8Start, count: embeddedCatalogJSON.utf8CodeUnitCount),
        release: {})

    static let index: CatalogIndex = {
        guard let bytes = decodeBase64(embeddedCatalogIndexBase64), let index = try? CatalogIndex(bytes: bytes) else {
            fatalError("the embedded catalog's index does not decode: run python3 Scripts/embed-catalog.py")
        }
        return index
    }()

    /// Standard base64 (with `=` padding), nil on any other byte.
    static func decodeBase64(_ text: StaticString) -> [UInt8]? {
        let input = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard input.count % 4 == 0 else { return nil }
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() { table[Int(c)] = UInt8(i) }
        var padding = 0
        if input.count >= 1, input[input.count - 1] == UInt8(ascii: "=") { padding += 1 }
        if input.count >= 2, input[input.count - 2] == UInt8(ascii: "=") { padding += 1 }
        let length = input.count / 4 * 3 - padding
        var out = [UInt8](repeating: 0, count: length)
        let ok = out.withUnsafeMutableBufferPointer { out -> Bool in
            var o = 0
            var i = 0
            while i < input.count {
                let a = table[Int(input[i])], b = table[Int(input[i + 1])]
                let c = input[i + 2] == UInt8(ascii: "=") && i + 4 == input.count ? 0 : table[Int(input[i + 2])]
                let d = input[i + 3] == UInt8(ascii: "=") && i + 4 == input.count ? 0 : table[Int(input[i + 3])]
                guard (a | b | c | d) & 0xC0 == 0 else { return false }
                let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                if o < length { out[o] = UInt8(truncatingIfNeeded: word >> 16); o += 1 }
                if o < length { out[o] = UInt8(truncatingIfNeeded: word >> 8); o += 1 }
                if o < length { out[o] = UInt8(truncatingIfNeeded: word); o += 1 }
                i += 4
            }
            return true
        }
        return ok ? out : nil
    }
}
