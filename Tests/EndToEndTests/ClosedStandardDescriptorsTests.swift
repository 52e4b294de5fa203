// The built binary started with stdout, stderr or stdin closed (`>&-`, `2>&-`, `<&-`): those
// numbers are taken by /dev/null before anything else opens a file, so no event descriptor,
// lock or store file gets them, and output meant for a closed stdout is an error (74), said on
// stderr, never written into another file.

import Foundation
import XCTest
import ShopYTestSupport

final class ClosedStandardDescriptorsTests: XCTestCase {
    func shell(_ script: String, home: String) throws -> ProcessOutput {
        guard FileManager.default.isExecutableFile(atPath: "/bin/sh") else { throw XCTSkip("needs /bin/sh to start shopy with a descriptor closed") }
        let shopy = Binary.path("shopy")
        guard FileManager.default.isExecutableFile(atPath: shopy) else { throw XCTSkip("the shopy binary is not built beside the tests") }
        return try ChildProcess.run("/bin/sh", ["-c", script, shopy], environment: ["PATH": "/usr/bin:/bin", "SHOPY_HOME": home, "LANG": "C.UTF-8"])
    }

    func testAClosedStdoutIsABadDescriptorNotAnotherFile() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-closed-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let closed = try shell("exec \"$0\" search 방충망 --source catalog --format tsv >&-", home: home)
        XCTAssertEqual(closed.status, 74, closed.stderr)
        XCTAssertEqual(closed.stderr, "shopy: cannot write to standard output: bad file descriptor\n")
        // The store is whole: what was meant for stdout went nowhere else.
        let listed = try shell("exec \"$0\" history --format tsv", home: home)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.hasSuffix("\t방충망\n"), listed.stdout)
        // Both closed, and stdin: the like is made, and the store reads back.
        let liked = try shell("exec \"$0\" like 1 >&- 2>&- <&-", home: home)
        XCTAssertEqual(liked.status, 0)
        let likes = try shell("exec \"$0\" likes --format tsv", home: home)
        XCTAssertEqual(likes.status, 0, likes.stderr)
        XCTAssertEqual(likes.stdout.split(separator: "\n").count, 1, likes.stdout)
        let doctor = try shell("exec \"$0\" doctor", home: home)
        XCTAssertEqual(doctor.status, 0, doctor.stdout + doctor.stderr)
    }
}
