// Store files past their limit (`StoreFileLimits`) as the commands meet them: each suite file
// named with its size and left as it is, doctor reporting one and --repair moving it aside, a
// widget timeline replaced as a cache. The limits themselves: ShopYCoreTests/Store/StoreFileLimitTests.

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

final class StoreFileLimitCommandTests: XCTestCase {
    var home = ""
    var env: [String: String] { ["SHOPY_HOME": home, "SHOPY_WIDGET_BACKGROUND": "off"] }

    override func setUpWithError() throws {
        home = NSTemporaryDirectory() + "shopy-limits-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: home)
        super.tearDown()
    }

    func shopy(_ arguments: [String]) async -> CLIRun {
        let io = IO.capture(environment: env)
        let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    /// Grows `name` (made when missing) to `size` bytes without writing them (a hole of zeros).
    func grow(_ name: String, to size: Int) throws {
        let path = home + "/" + name
        if !FileManager.default.fileExists(atPath: path) { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("{".utf8))) }
        XCTAssertEqual(truncate(path, off_t(size)), 0)
    }

    /// Inode, size and modification time.
    func identity(_ name: String) -> [Int] {
        var info = stat()
        guard stat(home + "/" + name, &info) == 0 else { return [] }
        return [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }

    /// A store with likes, a journal, a listing and prices, as commands leave it.
    func makeStore() async throws {
        for arguments in [["search", "고양이", "--source", "catalog"], ["like", "1", "2"], ["like", "3"], ["likes", "alert", "1", "--below", "1000"]] {
            let run = await shopy(arguments)
            XCTAssertEqual(run.code, 0, "\(arguments): \(run.stderr)")
        }
        for name in ["likes.json", "likes.journal", "state.json", "prices.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/" + name), name)
        }
    }

    func testEachSuiteFileOverItsLimitIsNamedWithItsSizeAndLeftAsItIs() async throws {
        try await makeStore()
        let cases: [(name: String, limit: Int, shown: String)] = [
            ("likes.json", StoreFileLimits.likesSnapshot, "512 MiB"),
            ("likes.journal", StoreFileLimits.likesJournal, "64 MiB"),
            ("state.json", StoreFileLimits.state, "64 MiB"),
            ("preferences.json", StoreFileLimits.preferences, "4 MiB"),
            ("prices.json", StoreFileLimits.prices, "512 MiB"),
        ]
        for (name, limit, shown) in cases {
            let path = home + "/" + name
            let original = FileManager.default.contents(atPath: path)
            try grow(name, to: limit + 1)
            let before = identity(name)
            let started = Date()
            let run = await shopy(["likes"])
            XCTAssertLessThan(Date().timeIntervalSince(started), 5, "\(name) was read")
            XCTAssertTrue(run.stderr.contains("\(path) is damaged: it is \(FileIO.describe(bytes: limit + 1)), more than the \(shown) shopy ever writes there"),
                          "\(name): \(run.stderr)")
            XCTAssertTrue(run.code == 65 || run.stderr.contains("warning:"), "\(name): 65, or a warning where the file is not needed: \(run.code) \(run.stderr)")
            XCTAssertEqual(identity(name), before, "\(name) is left exactly as it was")
            // Put back, for the next file.
            if let original { try Data(original).write(to: URL(fileURLWithPath: path)) } else { unlink(path) }
        }
        let doctor = await shopy(["doctor"])
        XCTAssertFalse(doctor.stdout.contains("damaged"), doctor.stdout)
    }

    func testDoctorReportsAFileOverItsLimitAndRepairMovesItAside() async throws {
        try await makeStore()
        try grow("likes.journal", to: StoreFileLimits.likesJournal + 1)
        let doctor = await shopy(["doctor"])
        XCTAssertEqual(doctor.code, 65)
        XCTAssertTrue(doctor.stdout.contains("likes.journal     damaged: it is 64.0 MiB (67,108,865 bytes), more than the 64 MiB shopy ever writes there"), doctor.stdout)
        let repair = await shopy(["doctor", "--repair"])
        XCTAssertEqual(repair.code, 0, repair.stdout + repair.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/likes.json"))
        let likes = await shopy(["likes"])
        XCTAssertEqual(likes.code, 0, likes.stderr)
    }

    func testAWidgetTimelineOverItsLimitIsACacheToReplace() async throws {
        try await makeStore()
        let provider = WidgetProvider(store: SettingsStore(directory: home), name: "default", environment: env)
        let now = Date()
        let (_, selection, policy) = try provider.resolve()
        let entries = (0..<4).map { WidgetEntry(date: now.addingTimeInterval(Double($0) * 300), items: []) }
        try WidgetTimeline(name: "default", generatedAt: now, policy: policy, fingerprint: StoreFingerprint.of(directory: home),
                           shownIDs: selection.shown.map(\.id), entries: entries).save(directory: home)
        let starter = StartCounter()
        _ = WidgetService.show(provider, now: now.addingTimeInterval(1), starter: starter)
        XCTAssertEqual(starter.started, 0, "a fresh timeline: nothing to refresh")
        // The same timeline with a megabyte of spaces after it: still JSON, but larger than any
        // timeline shopy writes. It is treated as a damaged one is: as if absent, so due.
        let path = home + "/" + WidgetTimeline.fileName("default")
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(repeating: 0x20, count: StoreFileLimits.widgetTimeline))
        handle.closeFile()
        XCTAssertNil(WidgetTimeline.load(directory: home, name: "default"))
        _ = WidgetService.show(provider, now: now.addingTimeInterval(2), starter: starter)
        XCTAssertEqual(starter.started, 1, "an oversized timeline is replaced by a refresh, as a damaged one is")
        // As a damaged one: the poll still answers.
        let poll = await shopy(["widget", "--format", "json"])
        XCTAssertEqual(poll.code, 0, poll.stderr)
        // The refresh writes a new one over it.
        let refresh = await shopy(["widget", "refresh"])
        XCTAssertEqual(refresh.code, 0, refresh.stderr)
        XCTAssertNotNil(WidgetTimeline.load(directory: home, name: "default"))
        XCTAssertLessThan(identity(WidgetTimeline.fileName("default"))[1], StoreFileLimits.widgetTimeline)
    }
}

private final class StartCounter: WidgetRefreshStarter, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var started: Int { lock.withLock { count } }

    func start(directory: String, name: String, environment: [String: String], stillDue: () -> Bool) -> Bool {
        guard stillDue() else { return false }
        lock.withLock { count += 1 }
        return true
    }
}
