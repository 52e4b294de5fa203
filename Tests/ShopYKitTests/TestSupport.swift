// Helpers shared by the unit tests: sockets, fakes and runners used by more than one file.

import Foundation
import XCTest
@testable import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYBase

extension XCTestCase {
    /// A TCP socket listening on an ephemeral loopback port.
    func listeningSocket() throws -> (Int32, Int) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw XCTSkip("no socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                bind(fd, sa, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, sa, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw XCTSkip("cannot listen on loopback: \(errno)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// A test case with a fresh store directory of its own (removed afterwards) and a way to make
/// a like, for the store's file-level tests.
class StoreDirectoryTestCase: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "shopy-store-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
        super.tearDown()
    }

    func like(_ id: String) -> Like {
        Like(product: Product(productId: id, title: "상품", price: 1000, mall: "몰"), likedAt: "2026-12-01T00:00:00Z", likedPrice: 1000)
    }
}

/// A DataLab that answers each keyword with one September point: "huge" at 100 and every other
/// keyword then at 0 (50 when no "huge" is asked for), so "huge" cannot share a scale with them.
struct HugeKeywordDataLab: HTTPTransport {
    func send(_ request: HTTPRequest, deadline: ContinuousClock.Instant) async throws(TransportError) -> HTTPResponse {
        let body = try! JSONParser.parse(request.body ?? [])
        let names = body["keyword"]!.arrayValue!.map { $0["name"]!.stringValue! }
        let results = names.map { name -> String in
            let ratio = name == "huge" ? "100" : (names.contains("huge") ? "0" : "50")
            return "{\"title\":\"\(name)\",\"keyword\":[\"\(name)\"],\"data\":[{\"period\":\"2026-09-01\",\"ratio\":\(ratio)}]}"
        }
        return HTTPResponse(status: 200, body: Array("{\"results\":[\(results.joined(separator: ","))]}".utf8))
    }
}
