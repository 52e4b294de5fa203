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
        let text = embeddedCatalogIndexBase64
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: max(decodedLength(text) ?? 0, 1), alignment: 16)
        guard let length = decodedLength(text), decode(text, into: memory),
              let index = try? CatalogIndex(bytes: UnsafeRawBufferPointer(rebasing: memory[0..<length]), release: { memory.deallocate() }) else {
            fatalError("the embedded catalog's index does not decode: run python3 Scripts/embed-catalog.py")
        }
        return index
    }()

    /// Standard base64 (with `=` padding), nil on any other byte.
    static func decodeBase64(_ text: StaticString) -> [UInt8]? {
        guard let length = decodedLength(text) else { return nil }
        var out = [UInt8](repeating: 0, count: length)
        let ok = out.withUnsafeMutableBytes { decode(text, into: $0) }
        return ok ? out : nil
    }

    private static func decodedLength(_ text: StaticString) -> Int? {
        let input = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard input.count % 4 == 0 else { return nil }
        var padding = 0
        if input.count >= 1, input[input.count - 1] == UInt8(ascii: "=") { padding += 1 }
        if input.count >= 2, input[input.count - 2] == UInt8(ascii: "=") { padding += 1 }
        return input.count / 4 * 3 - padding
    }

    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// Decodes into `out` (at least `decodedLength` bytes); false on a byte that is not base64.
    private static func decode(_ text: StaticString, into out: UnsafeMutableRawBufferPointer) -> Bool {
        let input = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        guard let length = decodedLength(text), out.count >= length else { return false }
        return table.withUnsafeBufferPointer { table -> Bool in
            var o = 0
            var i = 0
            while i < input.count {
                let last = i + 4 == input.count
                let a = table[Int(input[i])], b = table[Int(input[i + 1])]
                let c = last && input[i + 2] == UInt8(ascii: "=") ? 0 : table[Int(input[i + 2])]
                let d = last && input[i + 3] == UInt8(ascii: "=") ? 0 : table[Int(input[i + 3])]
                guard (a | b | c | d) & 0xC0 == 0 else { return false }
                let word = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                if o < length { out[o] = UInt8(truncatingIfNeeded: word >> 16); o += 1 }
                if o < length { out[o] = UInt8(truncatingIfNeeded: word >> 8); o += 1 }
                if o < length { out[o] = UInt8(truncatingIfNeeded: word); o += 1 }
                i += 4
            }
            return true
        }
    }
}
