// Issue 8: invalid UTF-8 in argv reaches the built binary as raw bytes and is refused (64).

import Foundation
import XCTest
import ShopYTestSupport

final class HostileArgvTests: XCTestCase {
    func testInvalidUTF8InArgvIsRefusedByTheBinary() throws {
        // Foundation's Process takes Strings: a shell passes the raw byte.
        guard FileManager.default.isExecutableFile(atPath: "/bin/sh") else { throw XCTSkip("needs /bin/sh to pass a non-UTF-8 argument") }
        let shopy = Binary.path("shopy")
        guard FileManager.default.isExecutableFile(atPath: shopy) else { throw XCTSkip("the shopy binary is not built beside the tests") }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-argv-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" search \"$(printf 'a\\377b')\" --source catalog", shopy],
                                          environment: ["PATH": "/usr/bin:/bin", "SHOPY_HOME": home])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("argument 2 is not valid UTF-8"), result.stderr)
    }
}
