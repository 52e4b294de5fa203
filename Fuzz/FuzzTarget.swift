// libFuzzer entry for shopy's hostile-input paths: the answer decoder (JSON → WireSearchResponse
// → AnswerCheck → ProductMapper), the title cleaner and sanitizer, and the listing arithmetic
// (rank numbers, footer range, last page, reach, web place) and the Retry-After parser.
//
// Built by Fuzz/run.sh with `swiftc -sanitize=fuzzer` together with the ShopYCore sources it
// covers (no package, no shim: those files need only Foundation). A crash, a trap or a broken
// invariant below (`check`) is a finding; libFuzzer writes the input to crash-* files.

import Foundation

@inline(never)
func check(_ condition: Bool, _ what: @autoclosure () -> String) {
    if !condition {
        FileHandle.standardError.write(Data("invariant broken: \(what())\n".utf8))
        abort()
    }
}

/// The first byte picks the path; the rest is its input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    switch data[0] % 3 {
    case 0: fuzzAnswer(bytes)
    case 1: fuzzText(bytes)
    default: fuzzArithmetic(bytes)
    }
    return 0
}

/// A 200 body as a server might send it.
func fuzzAnswer(_ body: [UInt8]) {
    guard let answer = try? WireSearchResponse(body: body) else { return }
    let request = SearchRequest(query: "q", start: 1, display: 20)
    let page = ProductMapper.page(from: answer, query: "q", sort: .sim, source: .naver)
    check(page.items.count + page.dropped == answer.items.count, "mapped + dropped = items")
    for product in page.items {
        check(ProductID.usable(product.productId) == product.productId, "a listed id is usable")
        check(product.title.count <= FieldLimits.title, "title bounded")
        for text in [product.mall, product.brand, product.maker].compactMap({ $0 }) + product.categories {
            check(text.count <= FieldLimits.shopText, "shop text bounded")
        }
        check((product.link?.utf8.count ?? 0) <= FieldLimits.url, "link bounded")
        if let price = product.price { check(price > 0, "prices are positive or unknown") }
    }
    if AnswerCheck.problem(in: answer, for: request) == nil {
        check(answer.start == 1 && answer.total >= 0 && answer.display == answer.items.count, "accepted answers fit the contract")
    }
    for index in page.items.indices { _ = page.rank(of: index) }
    _ = ListingArithmetic.range(start: page.start, count: page.items.count)
    _ = ListingArithmetic.lastPage(total: page.total, size: page.display)
    _ = ListingArithmetic.reach(depth: page.display, total: page.total)
}

/// Text as a title, a mall name or a Retry-After header.
func fuzzText(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    let cleaned = TitleCleaner.clean(text)
    let safe = Sanitizer.clean(cleaned)
    check(!safe.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 }, "sanitized text has no escapes")
    check(!Sanitizer.needsCleaning(safe), "sanitizing is idempotent")
    let cut = FieldLimits.cut(safe, to: 50)
    check(cut.count <= 50 && safe.hasPrefix(cut), "cut is a Character prefix")
    let padded = DisplayWidth.pad(safe, toWidth: 30)
    check(DisplayWidth.of(padded) <= 30, "pad never overflows its width")
    if let wait = RetryAfter.seconds(text, now: Date(timeIntervalSince1970: 1_800_000_000)) {
        check(wait >= 0 && wait <= RetryAfter.maxSeconds, "Retry-After clamped")
    }
}

/// Three integers from the bytes (little-endian, 8 bytes each, zero-filled).
func fuzzArithmetic(_ bytes: [UInt8]) {
    func int(_ i: Int) -> Int {
        var value: UInt64 = 0
        for k in 0..<8 where i * 8 + k < bytes.count { value |= UInt64(bytes[i * 8 + k]) << (8 * UInt64(k)) }
        return Int(truncatingIfNeeded: value)
    }
    let a = int(0), b = int(1), c = int(2)
    let (first, last) = ListingArithmetic.range(start: a, count: b)
    check(first == a, "range starts at start")
    if b >= 1 { check(last >= first, "range is ordered") }
    check(ListingArithmetic.lastPage(total: a, size: b) >= 1, "last page at least 1")
    check(ListingArithmetic.reach(depth: a, total: b) >= 0, "reach never negative")
    let place = ListingArithmetic.webPlace(rank: c)
    check(place.page >= 1 && (1...40).contains(place.position), "web place in range")
    let page = SearchPage(query: "q", sort: .sim, source: .naver, total: a, start: b, display: c, items: [])
    _ = page.rank(of: max(0, c))
    let answer = WireSearchResponse(total: a, start: b, display: c, items: [])
    if AnswerCheck.problem(in: answer, for: SearchRequest(query: "q", start: 1, display: 20)) == nil {
        check(a >= 0 && b == 1 && c == 0, "accepted numbers fit the contract")
    }
}
