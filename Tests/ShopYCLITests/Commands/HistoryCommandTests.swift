// Tests for Sources/ShopYCLI/Commands/HistoryCommand.swift in process: `--remove` says each query
// once, the table shows local time while JSON keeps UTC. End to end: EndToEndTests/StoreEndToEndTests.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class HistoryCommandTests: XCTestCase {
    private var scratch: [String] = []

    override func tearDown() {
        for path in scratch { try? FileManager.default.removeItem(atPath: path) }
        super.tearDown()
    }

    private func temporaryPath(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "shopy-history-\(UUID().uuidString.prefix(8))-\(name)"
        scratch.append(path)
        return path
    }

    /// `history --remove a --remove a` reported 'a' twice.
    func testHistoryRemoveSaysEachQueryOnce() async throws {
        let home = temporaryPath("home")
        _ = await Shell.run(["search", "방충망", "--source", "catalog", "-q"], environment: ["SHOPY_HOME": home])
        let run = await Shell.run(["history", "--remove", "방충망", "--remove", "방충망 ", "--remove", "nope", "--remove", "nope"],
                                  environment: ["SHOPY_HOME": home])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(run.stdout + run.stderr, "history: removed '방충망'\nhistory: 'nope' is not in the history\n")
    }

    /// A query a spreadsheet would read as a formula is guarded in CSV, as network text is.
    func testHistoryCSVGuardsFormulas() async throws {
        let home = Home()
        let store = SettingsStore(directory: home.path)
        try store.update([.state]) { $0.history = [HistoryEntry(query: "=1+1", at: "2026-12-01T09:30:00Z"), HistoryEntry(query: "-3+3", at: "2026-12-01T09:31:00Z")] }
        let csv = await home.run(["history", "--format", "csv"])
        XCTAssertEqual(csv.stdout, "at,query\r\n2026-12-01T09:30:00Z,'=1+1\r\n2026-12-01T09:31:00Z,'-3+3\r\n")
    }

    func testHistoryTableShowsLocalTimeAndJSONKeepsUTC() async throws {
        let home = Home()
        let store = SettingsStore(directory: home.path)
        try store.update([.state]) { $0.history = [HistoryEntry(query: "방충망", at: "2026-12-01T09:30:00Z")] }
        let local = Timestamp.local(Date(timeIntervalSince1970: 1_796_117_400)).prefix(16)  // 2026-12-01T09:30:00Z
        let table = await home.run(["history", "--format", "table"])
        XCTAssertTrue(table.stdout.contains("  \(local)  방충망"), "local time for people: \(table.stdout)")
        XCTAssertFalse(table.stdout.contains("T09:30:00Z"))
        let json = await home.run(["history", "--json"])
        XCTAssertTrue(json.stdout.contains("\"at\": \"2026-12-01T09:30:00Z\""), json.stdout)
        XCTAssertEqual(LocalTime.display("not a time"), "not a time")
        XCTAssertEqual(LocalTime.parseUTC("2026-12-01T09:30:00Z")?.timeIntervalSince1970, 1_796_117_400)
    }
}
