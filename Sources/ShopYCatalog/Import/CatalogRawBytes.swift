#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// The import's small text rules on bytes (the values of `CatalogRawRecords`): no String per field.
enum CatalogRawBytes {
    /// `CatalogService.unbolded` on bytes: every `</b>` removed, then every `<b>`.
    static func unbolded(_ span: CatalogRawRecords.Span, store: CatalogByteStore) -> CatalogRawRecords.Span {
        let bytes = span.buffer
        guard contains(bytes, "</b>") || contains(bytes, "<b>") else { return span }
        var out = Array(bytes)
        for tag in [Array("</b>".utf8), Array("<b>".utf8)] {
            var kept: [UInt8] = []
            kept.reserveCapacity(out.count)
            var i = 0
            while i < out.count {
                if i + tag.count <= out.count && out[i..<(i + tag.count)].elementsEqual(tag) { i += tag.count; continue }
                kept.append(out[i]); i += 1
            }
            out = kept
        }
        return store.copy(out)
    }

    /// `CatalogRecord.validTimestamp` on bytes.
    static func isTimestamp(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.count == 20, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x5A else { return false }
        for i in [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18] where b[i] &- 0x30 >= 10 { return false }
        return true
    }

    /// `CatalogRecord.earlier` of spans: the older of two first-seen dates, a missing or
    /// unreadable one never winning.
    static func earlier(_ a: CatalogRawRecords.Span, _ b: CatalogRawRecords.Span) -> CatalogRawRecords.Span {
        guard !b.isAbsent, isTimestamp(b.buffer) else { return a }
        guard isTimestamp(a.buffer) else { return b }
        return b.buffer.lexicographicallyPrecedes(a.buffer) ? b : a
    }

    /// `TitleCleaner.clean` of the text, as bytes handed to `body`.
    static func withCleaned<R>(_ raw: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard var cleaned = TitleCleaner.clean(bytes: raw) else { return body(raw) }
        return cleaned.withUTF8(body)
    }

    /// Whether `needle` occurs in `hay`: candidates found with memchr, checked with memcmp.
    static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        let n = needle.utf8CodeUnitCount
        guard let base = hay.baseAddress, n > 0, hay.count >= n else { return n == 0 }
        let first = Int32(needle.utf8Start[0])
        var at = 0
        let last = hay.count - n
        while at <= last {
            guard let found = memchr(base + at, first, last - at + 1) else { return false }
            let offset = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            if memcmp(base + offset, needle.utf8Start, n) == 0 { return true }
            at = offset + 1
        }
        return false
    }

    /// Without ASCII whitespace at either end (`trimmingASCIIWhitespace`).
    static func trimmed(_ b: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var lower = 0, upper = b.count
        func space(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        while lower < upper, space(b[lower]) { lower += 1 }
        while upper > lower, space(b[upper - 1]) { upper -= 1 }
        return UnsafeBufferPointer(rebasing: b[lower..<upper])
    }

    /// `Int(text)`: an optional sign, then one or more ASCII digits, nil on overflow.
    static func int(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        var negative = false
        if let first = b.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            negative = first == UInt8(ascii: "-")
            i = 1
        }
        guard i < b.count else { return nil }
        var value = 0
        while i < b.count {
            let digit = b[i] &- 0x30
            guard digit < 10 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times.subtractingReportingOverflow(Int(digit)) : times.addingReportingOverflow(Int(digit))
            guard !o1 && !o2 else { return nil }
            value = next
            i += 1
        }
        return value
    }
}
