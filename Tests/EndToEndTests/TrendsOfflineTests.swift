// `shopy trends` fails at once when offline, like search: inside a network namespace with only
// loopback (NetworkNamespace from NetworkNamespaceTests.swift). Needs Linux, root and iproute2.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class TrendsOfflineTests: XCTestCase {
    func testOfflineFailsFastWithoutWaitingForTheTimeout() throws {
        #if os(Linux)
        guard geteuid() == 0 else { throw XCTSkip("needs root to create a network namespace with 'ip'") }
        guard let ip = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("needs iproute2 ('ip' was not found)")
        }
        let namespace = try NetworkNamespace(ip: ip)
        defer { namespace.destroy() }
        let environment = ["NAVER_API_HUB_KEY_ID": "id", "NAVER_API_HUB_KEY": "key", "SHOPY_DATALAB_BASE": "http://192.0.2.1/shopping/v1"]
        let offline = try namespace.shopy(["trends", "keywords", "원피스", "--category", "패션의류", "--timeout", "20"], environment: environment)
        // Offline (69) before anything is sent, not a timeout (75) after 20 s.
        assertErrorReport(offline, status: 69, contains: ["offline", "192.0.2.1"])
        #else
        throw XCTSkip("network namespaces are Linux only")
        #endif
    }
}
