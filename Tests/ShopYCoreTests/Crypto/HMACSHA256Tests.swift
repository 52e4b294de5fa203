import XCTest
@testable import ShopYCore

/// HMAC-SHA256 from the system's crypto library against RFC 4231's test vectors (section 4),
/// and Coupang's signature built on it.
final class HMACSHA256Tests: XCTestCase {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// RFC 4231 §4.2–4.8: (key, data, HMAC-SHA-256). Test case 5's output is truncated to 128 bits.
    static let vectors: [(key: [UInt8], data: [UInt8], mac: String)] = [
        ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (bytes("0102030405060708090a0b0c0d0e0f10111213141516171819"), [UInt8](repeating: 0xcd, count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ([UInt8](repeating: 0x0c, count: 20), Array("Test With Truncation".utf8),
         "a3b6167473100ee06e0c796c2955552b"),
        ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ([UInt8](repeating: 0xaa, count: 131),
         Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ]

    func testRFC4231Vectors() throws {
        for (number, vector) in Self.vectors.enumerated() {
            let mac = Self.hex(try HMACSHA256.mac(key: vector.key, message: vector.data))
            XCTAssertEqual(String(mac.prefix(vector.mac.count)), vector.mac, "RFC 4231 test case \(number + 1)")
            XCTAssertEqual(mac.count, 64)
        }
    }

    func testEmptyKeyAndMessageAreStillMACs() throws {
        // HMAC-SHA256("", "") (Python's hmac agrees): an empty key is a key, not "the last one".
        XCTAssertEqual(try HMACSHA256.hex(key: "", message: ""), "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
        XCTAssertEqual(try HMACSHA256.hex(key: "Jefe", message: "what do ya want for nothing?"),
                       "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// Coupang's signature: hex(HMAC-SHA256(secret, signed-date + METHOD + path + query)), the
    /// date yyMMdd'T'HHmmss'Z' in UTC (the value below is Python's hmac over the same message).
    func testCoupangSignature() throws {
        let date = Date(timeIntervalSince1970: 1_796_117_405)  // 2026-12-01 09:30:05 UTC
        XCTAssertEqual(CoupangSigner.signedDate(date), "261201T093005Z")
        XCTAssertEqual(CoupangSigner.date(signed: "261201T093005Z"), date)
        XCTAssertNil(CoupangSigner.date(signed: "20261201T093005Z"))
        XCTAssertNil(CoupangSigner.date(signed: "261301T093005Z"))
        let credentials = CoupangCredentials(accessKey: "test-access-key", secretKey: "test-secret-key")
        let header = try CoupangSigner.authorization(method: "GET", path: "/v2/providers/affiliate_open_api/apis/openapi/v1/products/search",
                                                     query: "keyword=%ED%99%94%EC%9E%A5%EC%A7%80&limit=10", credentials: credentials, at: date)
        XCTAssertEqual(header, "CEA algorithm=HmacSHA256, access-key=test-access-key, signed-date=261201T093005Z, signature=bd0677cd084d46fcc7d18cf1cfe15937496f72600cc3c245395d4ac7ac65c423")
        let parsed = try XCTUnwrap(CoupangSigner.parse(header))
        XCTAssertEqual(parsed.accessKey, "test-access-key")
        XCTAssertEqual(parsed.signedDate, "261201T093005Z")
        XCTAssertNil(CoupangSigner.parse("Bearer abc"))
        XCTAssertNil(CoupangSigner.parse("CEA algorithm=HmacSHA1, access-key=a, signed-date=b, signature=c"))
        XCTAssertFalse(header.contains("test-secret-key"), "the secret signs; it is never sent")
    }
}
