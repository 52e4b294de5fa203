// `catalog import` reads what it is named as `likes import` does: a regular file up to the import
// limit, never a FIFO or a device (which could block forever or never end), stdin with `-`.

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

final class CatalogImportFileBoundsTests: XCTestCase {
    private func makeHome() throws -> Home {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        return home
    }

    func testAFIFOWithoutAWriterIsRefusedAtOnce() async throws {
        let home = try makeHome()
        let fifo = home.path + "/answers.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Should the import block on open, a writer comes after 4 s and closes at once: the
        // test then fails on its time instead of hanging.
        DispatchQueue.global().asyncAfter(deadline: .now() + 4) {
            let fd = open(fifo, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        let started = Date()
        let run = await home.run(["catalog", "import", fifo])
        XCTAssertLessThan(Date().timeIntervalSince(started), 3, "import blocked on the FIFO")
        XCTAssertEqual(run.code, 74, run.stderr)
        XCTAssertTrue(run.stderr.contains("is a FIFO, not a regular file") && run.stderr.contains("'shopy catalog import -'"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.path + "/catalog.json"), "nothing was imported")
    }

    func testADeviceIsRefusedUnread() async throws {
        let home = try makeHome()
        let null = await home.run(["catalog", "import", "/dev/null"])
        // /dev/zero is only tried once /dev/null was refused unread.
        guard null.code == 74 else { return XCTFail("/dev/null was read: \(null.code) \(null.stderr)") }
        XCTAssertTrue(null.stderr.contains("/dev/null: it is a device, not a regular file"), null.stderr)
        // Read, /dev/zero would grow without end: it is refused before a byte is read.
        let zero = await home.run(["catalog", "import", "/dev/zero"])
        XCTAssertEqual(zero.code, 74, zero.stderr)
        XCTAssertTrue(zero.stderr.contains("is a device"), zero.stderr)
    }

    func testAFileOverTheImportLimitIsRefusedUnread() async throws {
        let home = try makeHome()
        let big = home.path + "/big.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: big, contents: Data("[".utf8)))
        XCTAssertEqual(truncate(big, off_t(FileIO.importLimit + 1)), 0)  // sparse: no disk, no memory
        let run = await home.run(["catalog", "import", big])
        XCTAssertEqual(run.code, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("larger than 512 MiB"), run.stderr)
    }

    func testALinkToARegularFileStillImports() async throws {
        let home = try makeHome()
        let file = home.path + "/items.json"
        let link = home.path + "/items-link.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(#"[{"productId":"90000000001","title":"링크 방충망"}]"#.utf8)))
        XCTAssertEqual(symlink(file, link), 0)
        let run = await home.run(["catalog", "import", link])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stderr.hasSuffix("1 added, 0 updated, 0 skipped; the local catalog holds 1 item\n"), run.stderr)
        let missing = await home.run(["catalog", "import", home.path + "/nothing.json"])
        XCTAssertEqual(missing.code, 74, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("no such file"), missing.stderr)
    }
}
