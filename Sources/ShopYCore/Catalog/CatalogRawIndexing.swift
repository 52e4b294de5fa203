import Dispatch

/// The index of raw records (the import path): the same bytes `build(items:)` gives for their
/// items, the facts taken from the fields' bytes (`CatalogEntryFacts`'s rules on bytes).
extension CatalogIndexBuilder {
    static func build(records: CatalogRawRecords, ranges: [Range<Int>], generation: UInt64, itemsLength: Int) -> Pieces {
        typealias Field = CatalogRawRecords.Field
        let fields: [Field] = [.brand, .maker, .category1, .category2, .category3, .category4]
        var textCapacity = records.count * 8
        for r in 0..<records.count {
            for field in fields + [.title, .productId] { textCapacity += max(records[r, field].count, 0) }
        }
        return build(count: records.count, ranges: ranges, generation: generation, itemsLength: itemsLength, textCapacity: textCapacity, parallel: true) { r, text, _, table in
            var entry = Entry()
            let mark = Int32(truncatingIfNeeded: r)
            CatalogRawBytes.withCleaned(records[r, .title].buffer) { cleaned in
                let (length, found) = CatalogRawBytes.appendLowercased(cleaned, to: &text, table: table, ordinal: mark)
                entry.titleLength = length
                // The words in the cleaned title (found in the pass, or looked for in its bytes).
                let words = found ?? CatalogRawBytes.flagWords(cleaned)
                if words.contains(.rental) { entry.flags.insert(.rental) }
                if words.contains(.crossBorder) { entry.flags.insert(.crossBorder) }
            }
            for field in fields {
                let span = records[r, field]
                guard span.count > 0 else { continue }
                CatalogRawBytes.withCleaned(span.buffer) { cleaned in
                    let length = CatalogRawBytes.appendLowercased(cleaned, to: &text, table: table, ordinal: mark).length
                    if length > 0 {
                        text.append(0x1F)
                        entry.fieldsLength += length + 1
                    }
                }
            }
            let lprice = records[r, .lprice]
            entry.price = lprice.isAbsent ? nil : CatalogRawBytes.int(CatalogRawBytes.trimmed(lprice.buffer)).flatMap { $0 > 0 ? $0 : nil }
            let link = records[r, .link].buffer
            if CatalogRawBytes.contains(link, "://smartstore.naver.com/") || CatalogRawBytes.contains(link, "://brand.naver.com/") {
                entry.flags.insert(.naverPay)
            }
            let type = records[r, .productType]
            let t = type.isAbsent ? 0 : (CatalogRawBytes.int(type.buffer) ?? 0)
            if (4...6).contains(t) { entry.flags.insert(.used) }
            let id = records[r, .productId].buffer
            appendId(id, to: &text, entry: &entry)
            entry.idCharacters = id.count  // a usable productId is ASCII digits
            return entry
        }
    }
}

extension CatalogRawBytes {
    /// `TitleCleaner.clean` of the text, as bytes handed to `body`.
    @inline(__always)
    static func withCleaned<R>(_ raw: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard var cleaned = TitleCleaner.clean(bytes: raw) else { return body(raw) }
        return cleaned.withUTF8(body)
    }

    /// The flag words in the text's bytes (`CatalogEntryFacts`'s `contains` checks).
    static func flagWords(_ text: UnsafeBufferPointer<UInt8>) -> FlagWords {
        var words: FlagWords = []
        if contains(text, "렌탈") { words.insert(.rental) }
        if contains(text, "해외직구") || contains(text, "구매대행") { words.insert(.crossBorder) }
        return words
    }

    /// `CatalogText.keys` of the text, noted in the table as they come.
    @inline(__always)
    static func noteKeys(_ bytes: UnsafeBufferPointer<UInt8>, table: CatalogIndexBuilder.KeyTable, ordinal: Int32) {
        var previous: UInt32 = 0
        var i = 0
        while i < bytes.count {
            let (scalar, width) = CatalogText.decode(bytes, at: i)
            i += width
            if scalar < 0x80 ? (scalar == 0x20 || scalar &- 0x09 < 5) : CatalogText.isSpace(scalar) { previous = 0; continue }
            table.note(CatalogText.unigram(scalar), ordinal: ordinal)
            if previous != 0 { table.note(CatalogText.bigram(previous, scalar), ordinal: ordinal) }
            previous = scalar
        }
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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `work(0)` … `work(n - 1)` at once, one on this thread, and returns when all are done.
/// The other threads hold `work` unretained, so nothing keeps it once this returns (callers
/// pass closures that `withoutActuallyEscaping` lends).
enum CatalogParallel {
    private final class Box: @unchecked Sendable {
        let work: (Int) -> Void
        init(_ work: @escaping (Int) -> Void) { self.work = work }
    }

    private struct Handle: @unchecked Sendable {
        let box: Unmanaged<Box>
    }

    static func run(_ n: Int, _ work: @escaping (Int) -> Void) {
        let box = Box(work)
        let done = DispatchSemaphore(value: 0)
        let handle = Handle(box: Unmanaged.passUnretained(box))
        for i in 1..<n {
            DispatchQueue.global(qos: .userInitiated).async {
                handle.box.takeUnretainedValue().work(i)
                done.signal()
            }
        }
        box.work(0)
        for _ in 1..<n { done.wait() }
        withExtendedLifetime(box) {}
    }
}
