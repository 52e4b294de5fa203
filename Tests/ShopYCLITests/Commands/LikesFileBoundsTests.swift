// `likes import` is bounded and never blocks on a FIFO; `likes export` never blocks on open.

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

final class LikesFileBoundsTests: XCTestCase {
    /// Opens the FIFO's other end after `seconds`, without blocking, so that a command stuck
    /// opening it would get free and the test end instead of hanging. `needed`: whether it found
    /// one stuck (for the write end: a reader had the FIFO open).
    private final class Rescue: @unchecked Sendable {
        private let lock = NSLock()
        private var found = false
        var needed: Bool { lock.withLock { found } }

        init(_ fifo: String, write: Bool, after seconds: Double) {
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                let fd = open(fifo, (write ? O_WRONLY : O_RDONLY) | O_NONBLOCK)
                guard fd >= 0 else { return }
                if write { lock.withLock { found = true } }
                if !write { DispatchQueue.global().asyncAfter(deadline: .now() + 1) { close(fd) } } else { close(fd) }
            }
        }
    }

    func testImportOfAFIFOIsRefusedAtOnce() async throws {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let fifo = home.path + "/in.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let rescue = Rescue(fifo, write: true, after: 4)
        let run = await home.run(["likes", "import", fifo])
        XCTAssertFalse(rescue.needed, "import blocked opening the FIFO")
        XCTAssertEqual(run.code, 74, run.stderr)
        XCTAssertTrue(run.stderr.contains("is a FIFO, not a regular file") && run.stderr.contains("likes import -"), run.stderr)
        // A device too (never read: /dev/zero would never end).
        let device = await home.run(["likes", "import", "/dev/null"])
        XCTAssertEqual(device.code, 74, device.stderr)
        XCTAssertTrue(device.stderr.contains("is a device"), device.stderr)
    }

    func testAnImportOverTheLimitIsRefusedUnread() async throws {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let big = home.path + "/big.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: big, contents: Data("[".utf8)))
        XCTAssertEqual(truncate(big, off_t(FileIO.importLimit + 1)), 0)  // sparse: no disk, no memory
        let run = await home.run(["likes", "import", big])
        XCTAssertEqual(run.code, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("larger than 512 MiB"), run.stderr)
    }

    func testExportToAFIFOWithoutAReaderFailsAtOnce() async throws {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let fifo = home.path + "/out.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Had export blocked opening the FIFO, the rescue's reader would have let it write (0).
        _ = Rescue(fifo, write: false, after: 4)
        let run = await home.run(["likes", "export", fifo])
        XCTAssertEqual(run.code, 74, run.stderr)
        XCTAssertTrue(run.stderr.contains("FIFO that no process is reading"), run.stderr)
        // With a reader, and to a character device, export writes as before.
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        let piped = await home.run(["likes", "export", fifo])
        XCTAssertEqual(piped.code, 0, piped.stderr)
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = read(reader, &buffer, buffer.count)
        XCTAssertTrue(n > 0 && String(decoding: buffer[0..<n], as: UTF8.self).contains("\"likes\""))
        let device = await home.run(["likes", "export", "/dev/null"])
        XCTAssertEqual(device.code, 0, device.stderr)
    }

    func testLikesExportRefusesToReplaceAFileWithoutForce() async throws {
        let home = Home()
        _ = await home.run(["search", "방충망", "--size", "2"])
        _ = await home.run(["like", "1"])
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let file = home.path + "/backup.json"
        try "precious".write(toFile: file, atomically: true, encoding: .utf8)
        var run = await home.run(["likes", "export", file])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("exists; nothing was written"), run.stderr)
        XCTAssertTrue(run.stderr.contains("--force"), run.stderr)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "precious")
        run = await home.run(["likes", "export", file, "--force"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(try String(contentsOfFile: file, encoding: .utf8).contains("\"likes\""))
        // An empty file holds nothing to lose.
        let empty = home.path + "/empty.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        run = await home.run(["likes", "export", empty])
        XCTAssertEqual(run.code, 0, run.stderr)
    }
}
