// 11번가's answer from a server that lies, as the table shows it: cut to the size asked, every
// escape and bidirectional control gone. (The sources' side: ShopYCoreTests/ProductSources/
// HostileLiveAnswerTests.)

import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class HostileLiveAnswerRenderTests: XCTestCase {
    /// Answers every request with `response`, and counts them.
    final class Canned: HTTPTransport, @unchecked Sendable {
        let response: @Sendable (HTTPRequest) -> HTTPResponse
        private let lock = NSLock()
        private(set) var requests: [HTTPRequest] = []

        init(_ response: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.response = response }

        func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
            lock.withLock { requests.append(request) }
            return response(request)
        }
    }

    let key = "eleven-key-0123456789abcdef"

    func elevenStreet(_ status: Int = 200, headers: [String: String] = [:], body: [UInt8]) -> (ElevenStreetSource, Canned) {
        let canned = Canned { _ in HTTPResponse(status: status, headers: headers, body: body) }
        let client = ElevenStreetClient(base: URL(string: "https://openapi.11st.co.kr")!, key: key, transport: canned,
                                        retry: RetryPolicy(maxRetries: 1, baseDelay: 0.001, maxDelay: 0.001))
        return (ElevenStreetSource(client: client, timeout: 5), canned)
    }

    func testMoreProductsThanAskedAreCutAndTextIsSanitized() async throws {
        var text = #"<?xml version="1.0" encoding="UTF-8"?><ProductSearchResponse><Products><TotalCount>9</TotalCount>"#
        for k in 1...9 { text += "<Product><ProductCode>\(k)</ProductCode><ProductName><![CDATA[\u{1B}]52;c;ZXZpbA==\u{07}상품\(k)\u{202E}]]></ProductName></Product>" }
        text += "</Products></ProductSearchResponse>"
        let (source, _) = elevenStreet(body: Array(text.utf8))
        let page = try await source.search(SearchRequest(query: "a", display: 3))
        XCTAssertEqual(page.items.count, 3)
        let rendered = Render.table(page.items.enumerated().map { ListedItem(rank: $0.offset + 1, product: $0.element) }, columns: 80, color: false)
        for line in rendered {
            XCTAssertFalse(line.contains("\u{1B}") || line.contains("\u{07}") || line.contains("\u{202E}"), line)
        }
    }
}
