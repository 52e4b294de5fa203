// catalog.json past its limit (`StoreFileLimits.catalogItems`) as the commands meet it: named
// with its size, exit 65, left as it is, never read. The write side, with the limit lowered:
// ShopYCatalogTests/Local/CatalogFileLimitTests.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class CatalogFileLimitCommandTests: XCTestCase {
    func testACatalogPastItsLimitIsDamagedForEveryCommandThatReadsIt() async throws {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let items = home.path + "/catalog.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: items, contents: Data(#"{"schema":1,"generation":1,"items":["#.utf8)))
        XCTAssertEqual(truncate(items, off_t(StoreFileLimits.catalogItems + 1)), 0)  // sparse: no disk, no memory
        let expected = "shopy: \(items) is damaged: it is 512.0 MiB (536,870,913 bytes), more than the 512 MiB shopy ever writes there\n"
        let input = home.path + "/in.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: input, contents: Data(#"[{"productId":"1","title":"하나"}]"#.utf8)))
        for arguments in [["catalog"], ["catalog", "export"], ["catalog", "import", input], ["catalog", "remove", "1"],
                          ["search", "하나", "--source", "catalog"]] {
            let run = await home.run(arguments)
            XCTAssertEqual(run.code, 65, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix(expected), "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 2, "one line and its hint: \(run.stderr)")
        }
        var info = stat()
        XCTAssertEqual(stat(items, &info), 0)
        XCTAssertEqual(Int(info.st_size), StoreFileLimits.catalogItems + 1, "left as it is")
        XCTAssertLessThan(Int(info.st_blocks) * 512, 1 << 20, "never written")
    }
}
