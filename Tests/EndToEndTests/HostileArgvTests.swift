// Issue 8: invalid UTF-8 in argv reaches the built binary as raw bytes and is refused (64).

import Foundation
import XCTest

final class HostileArgvTests: XCTestCase {
    func testInvalidUTF8InArgvIsRefusedByTheBinary() throws {
        // Foundation's Process takes Strings: a shell passes the raw byte.
        guard FileManager.default.isExecutableFile(atPath: "/bin/sh") else { throw XCTSkip("needs /bin/sh to pass a non-UTF-8 argument") }
        let shopy = Binary.path("shopy")
        guard FileManager.default.isExecutableFile(atPath: shopy) else { throw XCTSkip("the shopy binary is not built beside the tests") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" search \"$(printf 'a\\377b')\" --source catalog", shopy]
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-argv-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        process.environment = ["PATH": "/usr/bin:/bin", "SHOPY_HOME": home]
        let err = Pipe(), out = Pipe()
        process.standardError = err
        process.standardOutput = out
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        _ = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 64)
        XCTAssertTrue(String(decoding: errData, as: UTF8.self).contains("argument 2 is not valid UTF-8"), String(decoding: errData, as: UTF8.self))
    }
}
