// Tests for the typed results of popular, rank, like/unlike, likes (list, export, import, clear,
// alert, alerts, refresh) and open/copy: each command's `execute` run in process (a store in a
// temporary directory, the offline catalog or the emulator, a recording launcher), its
// diagnostics collected, and the presenters' choice of stdout or notices.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
import ShopYCoreTestSupport

final class ResultTypesTests: StoreDirectoryTestCase {
    /// The SHOPY_HOME of the test: its fresh store directory.
    var home: String { directory }

    /// A context on `home` whose diagnostics are collected.
    func context(environment: [String: String] = [:], launcher: (any Launcher)? = nil) -> (Context, CollectedDiagnostics) {
        var io = IO.capture(environment: environment.merging(["SHOPY_HOME": home]) { a, _ in a },
                            now: { Date(timeIntervalSince1970: 1_780_000_000) })
        if let launcher { io.launcher = launcher }
        var context = Context(io: io, transport: NoNetworkTransport(), store: SettingsStore(directory: home))
        let collected = CollectedDiagnostics()
        context.diagnosticsSink = collected
        return (context, collected)
    }

    func parsed<C: Command>(_ type: C.Type, _ arguments: [String], path: String? = nil) throws -> C {
        try C(ArgumentParser.parse(arguments, for: C.spec, commandPath: path ?? C.spec.name))
    }

    /// Search the catalog in `home` so that the last listing has rows.
    func searchCatalog(_ query: String, size: Int = 5) async throws {
        let (context, _) = context()
        _ = try await SearchCommand(ArgumentParser.parse([query, "--size", String(size), "--source", "catalog"], for: SearchCommand.spec, commandPath: "search")).execute(context)
    }

    // MARK: - popular

    func testPopularExecuteReturnsSectionsWithRowsAndRemembersThem() async throws {
        let (context, collected) = context()
        let listing = try await parsed(PopularCommand.self, ["--size", "3"]).execute(context)
        XCTAssertEqual(listing.sections.map(\.keyword), PopularDefaults.shopy.catalog)
        XCTAssertEqual(listing.source, .catalog)
        XCTAssertEqual(listing.items.map { $0.map(\.rowText) }, [["1.1", "1.2", "1.3"], ["2.1", "2.2", "2.3"], ["3.1", "3.2", "3.3"]])
        XCTAssertEqual(collected.all.map(\.kind), [.notice], "only the catalog notice: \(collected.all)")
        XCTAssertTrue(context.io.stdout.text.isEmpty && context.io.stderr.text.isEmpty, "execute prints nothing")
        let rows = try SettingsStore(directory: home).read { $0.lastListing?.rows.map(\.row) }
        XCTAssertEqual(rows, ["1.1", "1.2", "1.3", "2.1", "2.2", "2.3", "3.1", "3.2", "3.3"])
    }

    func testPopularSaveIsANoticeAndTheSavedSectionsAreUsed() async throws {
        let (context, collected) = context()
        _ = try await parsed(PopularCommand.self, ["-s", "캣타워", "--save", "--source", "catalog"]).execute(context)
        XCTAssertEqual(collected.messages(.notice), ["saved default sections: 캣타워"])
        let listing = try await parsed(PopularCommand.self, ["--source", "catalog"]).execute(context)
        XCTAssertEqual(listing.sections.map(\.keyword), ["캣타워"])
        XCTAssertEqual(listing.sections[0].page?.total, 11)
    }

    // MARK: - rank

    func testRankExecuteOnTheCatalogFindsTheFirstMatchAndSendsNothing() async throws {
        let (context, _) = context()
        let command = try parsed(RankCommand.self, ["방충망", "--mall", "다샵", "--source", "catalog"])
        let outcome = try await command.execute(context)
        XCTAssertEqual(outcome.scan.matches.count, 1)
        XCTAssertEqual(outcome.scan.matches[0].product.mall, "다샵")
        XCTAssertNil(outcome.scan.requests, "the catalog sends no request")
        XCTAssertEqual(outcome.scan.total, 21)
        XCTAssertEqual(outcome.liked, [])
    }

    func testRankProgressBarIsDrawnFromEventsOnATerminalOnly() async throws {
        let (context, _) = context()
        var io = context.io
        io.stderrIsTerminal = true
        var terminal = context
        terminal.io = io
        let command = try parsed(RankCommand.self, ["고양이", "--title", "없는제목xyz", "--source", "catalog", "--json"])
        let code = try await command.run(terminal)
        XCTAssertEqual(code, .ok)
        XCTAssertTrue(io.stderr.text.contains("scanning 고양이"), io.stderr.text)
        XCTAssertTrue(try JSONParser.parse(io.stdout.text)["found"] == .bool(false))
    }

    // MARK: - like / unlike

    func testLikeAndUnlikeReturnChangesAndPrintThemAsNotices() async throws {
        try await searchCatalog("방충망")
        let (context, collected) = context()
        let liked = try await parsed(LikeCommand.self, ["1", "2"]).execute(context)
        XCTAssertEqual(liked.map(\.kind), [.liked, .liked])
        let again = try await parsed(LikeCommand.self, ["1"]).execute(context)
        XCTAssertEqual(again.map(\.kind), [.alreadyLiked])
        let unliked = try await parsed(UnlikeCommand.self, ["1"]).execute(context)
        XCTAssertEqual(unliked.map(\.kind), [.unliked])
        let none = try await parsed(UnlikeCommand.self, ["--id", "12345"]).execute(context)
        XCTAssertEqual(none, [LikeChanges.Change(kind: .notLiked, id: "12345", product: nil)])
        XCTAssertTrue(collected.all.isEmpty, "execute says nothing")
        XCTAssertEqual(LikeChangesPresenter().present(none, context: context), .ok)
        XCTAssertEqual(collected.messages(.notice), ["not liked: 12345"])
        XCTAssertEqual(context.io.stdout.text, "", "like/unlike lines are notices, not output")
    }

    func testLikeOfAnUnknownRowIsAUsageErrorAndChangesNothing() async throws {
        try await searchCatalog("방충망", size: 3)
        let (context, _) = context()
        do {
            _ = try await parsed(LikeCommand.self, ["1", "9"]).execute(context)
            XCTFail("row 9 does not exist")
        } catch {
            XCTAssertTrue(error is SelectionError, "\(error)")
            XCTAssertEqual(ExitCode(for: error), .usage)
        }
        XCTAssertEqual(try SettingsStore(directory: home).read { $0.likes.count }, 0, "row 1 was not liked either")
    }

    func testQuietLeavesOutLikeUnlikeAndImportLines() async throws {
        let env = ["SHOPY_HOME": home]
        func run(_ arguments: [String]) async -> CLIRun {
            let io = IO.capture(environment: env)
            let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
            return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
        }
        _ = await run(["search", "방충망", "--size", "3", "--source", "catalog"])
        for arguments in [["like", "1", "-q"], ["unlike", "1", "--quiet"], ["like", "2", "--quiet"]] {
            let result = await run(arguments)
            XCTAssertEqual(result.code, 0, result.stderr)
            XCTAssertEqual(result.stdout + result.stderr, "", "\(arguments)")
        }
        let export = home + "/out.json"
        let exported = await run(["likes", "export", export])
        XCTAssertEqual(exported.code, 0)
        let imported = await run(["likes", "import", export, "-q"])
        XCTAssertEqual(imported.code, 0)
        XCTAssertEqual(imported.stdout + imported.stderr, "")
        let loud = await run(["likes", "import", export])
        XCTAssertEqual(loud.stdout, "")
        XCTAssertEqual(loud.stderr, "shopy: imported 1 from \(export): 0 added, 1 kept (already liked)\n")
    }

    // MARK: - likes

    func testLikesListingIsStoredBytesForJSONBeforeARefreshElseDecoded() async throws {
        try await searchCatalog("방충망", size: 2)
        let (context, _) = context()
        _ = try await parsed(LikeCommand.self, ["1", "2"]).execute(context)
        guard case .stored(let raw) = try await parsed(LikesCommand.self, ["--json"]).execute(context) else { return XCTFail("JSON before any refresh comes from the stored bytes") }
        XCTAssertEqual(raw.count, 2)
        guard case .likes(let likes, let book, _) = try await parsed(LikesCommand.self, ["--format", "table"]).execute(context) else { return XCTFail("a table is decoded") }
        XCTAssertEqual(likes.count, 2)
        XCTAssertTrue(book.isEmpty)
    }

    func testLikesJSONAlwaysHasThePriceKeys() async throws {
        try await searchCatalog("방충망", size: 2)
        let (context, _) = context()
        _ = try await parsed(LikeCommand.self, ["1", "2"]).execute(context)
        for arguments in [["likes", "--json"], ["likes", "--json", "--sort", "title"], ["likes", "--format", "jsonl"]] {
            let run = await Shell.run(arguments, environment: ["SHOPY_HOME": home])
            let items: [JSONValue]
            if arguments.contains("jsonl") {
                items = try run.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
            } else {
                items = try JSONParser.parse(run.stdout)["items"]?.arrayValue ?? []
            }
            XCTAssertEqual(items.count, 2, "\(arguments)")
            for item in items {
                guard case .object(let o) = item else { return XCTFail("not an object") }
                XCTAssertEqual(Array(o.keys.suffix(6)), ["likedAt", "likedPrice", "change", "lowest", "highest", "refreshedAt"], "\(arguments)")
                XCTAssertEqual(o["lowest"], .null)
                XCTAssertEqual(o["highest"], .null)
                XCTAssertEqual(o["refreshedAt"], .null)
                XCTAssertEqual(o["change"], .number("0.0000"), "liked at the listed price")
            }
        }
    }

    func testLikesExportImportClearResults() async throws {
        try await searchCatalog("방충망", size: 3)
        let (context, collected) = context()
        _ = try await parsed(LikeCommand.self, ["1", "2", "3"]).execute(context)
        guard case .document(let bytes) = try await parsed(LikesExportCommand.self, [], path: "likes export").execute(context) else { return XCTFail() }
        let file = home + "/backup.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: file, contents: Data(bytes)))
        let target = home + "/x.json"
        guard case .written(3, target) = try await parsed(LikesExportCommand.self, [target], path: "likes export").execute(context) else { return XCTFail() }
        let cleared = try await parsed(LikesClearCommand.self, ["--yes"], path: "likes clear").execute(context)
        XCTAssertEqual(cleared.count, 3)
        XCTAssertTrue(cleared.backup?.hasPrefix(home + "/likes-backup-") == true)
        let imported = try await parsed(LikesImportCommand.self, [file], path: "likes import").execute(context)
        XCTAssertEqual(imported, LikesImportCommand.Imported(total: 3, shown: file, added: 3, kept: 0))
        XCTAssertTrue(collected.all.isEmpty)
    }

    func testClearCleansAndQuotesTheBackupPath() async throws {
        let hostile = home + "/a b\u{1B}[31m"
        try FileManager.default.createDirectory(atPath: hostile, withIntermediateDirectories: true)
        let store = SettingsStore(directory: hostile)
        try store.update([.likes]) { settings in
            var likes = settings.likes
            _ = likes.add(Like(product: Product(productId: "12345678", title: "t", price: 1), likedAt: "2026-12-01T00:00:00Z", likedPrice: 1))
            settings.likes = likes
        }
        let run = await Shell.run(["likes", "clear", "--yes"], environment: ["SHOPY_HOME": hostile])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("\u{1B}"), "SHOPY_HOME reaches the terminal cleaned: \(run.stderr)")
        XCTAssertTrue(run.stderr.contains("restore with: shopy likes import '"), run.stderr)
        XCTAssertEqual(ClearedWithBackup.shellWord("/tmp/x/likes-backup-1.json"), "/tmp/x/likes-backup-1.json")
        XCTAssertEqual(ClearedWithBackup.shellWord("/tmp/it's here"), "'/tmp/it'\\''s here'")
    }

    func testAlertAndAlertsResults() async throws {
        try await searchCatalog("방충망", size: 2)
        let (context, collected) = context()
        let liked = try await parsed(LikeCommand.self, ["1"]).execute(context)
        let id = liked[0].id
        let line = try await parsed(LikesAlertCommand.self, [id, "--drop", "10"], path: "likes alert").execute(context)
        XCTAssertTrue(line.rendered.hasPrefix("alert set: \(id) "), line.rendered)
        let rows = try await parsed(LikesAlertsCommand.self, [], path: "likes alerts").execute(context)
        XCTAssertEqual(rows.map(\.like.product.productId), [id])
        XCTAssertEqual(rows.first?.alert.rule, .drop(percent: 10))
        let off = try await parsed(LikesAlertCommand.self, [id, "--off"], path: "likes alert").execute(context)
        XCTAssertTrue(off.rendered.hasPrefix("alert removed: "))
        let after = try await parsed(LikesAlertsCommand.self, [], path: "likes alerts").execute(context)
        XCTAssertTrue(after.isEmpty)
        XCTAssertTrue(collected.all.isEmpty)
    }

    func testRefreshOnTheCatalogIsSameForEveryLikeAndSendsNothing() async throws {
        try await searchCatalog("방충망", size: 3)
        let (context, collected) = context()
        _ = try await parsed(LikeCommand.self, ["1", "2", "3"]).execute(context)
        var seen: [Int] = []
        let refreshed = try await parsed(LikesRefreshCommand.self, ["--source", "catalog"], path: "likes refresh").execute(context) { done, total in
            XCTAssertEqual(total, 3)
            seen.append(done)
        }
        XCTAssertEqual(refreshed.results.map(\.outcome), [.same, .same, .same])
        XCTAssertEqual(refreshed.source, .catalog)
        XCTAssertEqual(refreshed.requests, 0)
        XCTAssertTrue(refreshed.fired.isEmpty)
        XCTAssertEqual(seen, [0])
        XCTAssertEqual(PriceRefreshPresenter(format: .tsv).present(refreshed, context: context), .ok)
        XCTAssertEqual(collected.messages(.notice).count, 1, "the catalog is a recording: said once, as a notice")
    }

    // MARK: - open / copy

    func testOpenTriesBrowserEntriesInTurnWithTheLinkAsOneArgument() async throws {
        try await searchCatalog("방충망", size: 1)
        let launcher = RecordingLauncher(installed: ["first", "my browser"], outcome: ["first": .exited(3)])
        let (context, collected) = context(environment: ["BROWSER": "first --x:'my browser' --tab=%s --literal=100%%"], launcher: launcher)
        let opened = try await parsed(OpenCommand.self, ["1"]).execute(context)
        let link = opened[0].link
        XCTAssertTrue(link.hasPrefix("https://"))
        XCTAssertEqual(opened[0].openedBy, "$BROWSER (my browser)")
        XCTAssertEqual(launcher.calls.map(\.argv), [["/usr/bin/first", "--x", link], ["/usr/bin/my browser", "--tab=" + link, "--literal=100%"]])
        XCTAssertEqual(collected.messages(.warning), ["$BROWSER (first) failed (exit status 3); trying the next opener"])
        _ = OpenPresenter().present(opened, context: context)
        XCTAssertEqual(collected.messages(.notice), ["opened with $BROWSER (my browser): \(link)"])
        XCTAssertEqual(context.io.stdout.text, "")
    }

    func testCopyWithoutToolsOrTerminalPrintsTheLinkAndFails() async throws {
        try await searchCatalog("방충망", size: 1)
        let (context, _) = context(launcher: RecordingLauncher(installed: []))
        let copied = try await parsed(CopyCommand.self, ["1"]).execute(context)
        XCTAssertNil(copied.copiedBy)
        XCTAssertEqual(CopyPresenter().present(copied, context: context), .unavailable)
        XCTAssertEqual(context.io.stdout.text, copied.link + "\n")
    }
}
