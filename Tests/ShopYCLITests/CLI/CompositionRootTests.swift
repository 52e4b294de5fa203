// The composition root's rules, read from the sources: only Context/ShopY (and the network
// implementation itself) construct the store, read the system's network or probe the API;
// and `likes import -` reads the injected stdin.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
import ShopYTestSupport

final class CompositionRootTests: XCTestCase {
    static let sources = Repository.root().appendingPathComponent("Sources")

    /// Where each construction is allowed: the composition root, and the system network
    /// provider's own implementation (the process's stdin is read by `IO.process()` only).
    static let allowed = ["ShopYCLI/CLI/ShopY.swift", "ShopYCLI/Commands/Context.swift", "ShopYCore/Network/"]

    func testOnlyTheCompositionRootConstructsTheOutsideWorld() throws {
        var offenders: [String] = []
        let files = FileManager.default.enumerator(atPath: Self.sources.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        XCTAssertGreaterThan(files.count, 50, "the sources were found")
        for file in files where !Self.allowed.contains(where: { file.hasPrefix($0) }) {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                for forbidden in ["SettingsStore(", "SystemNetwork.", "PathMonitor(", "APIProbe.run", "FileHandle.standardInput"]
                where code.contains(forbidden) && !(forbidden.hasPrefix("FileHandle") && file == "ShopYCLI/CLI/IO.swift") {
                    offenders.append("\(file):\(number + 1): \(forbidden)")
                }
            }
        }
        XCTAssertEqual(offenders, [], "construct these in the composition root (Context) only")
    }

    /// Notices and warnings go through the diagnostics sink, printed in one place.
    func testDiagnosticsArePrintedInOnePlace() throws {
        var offenders: [String] = []
        let files = FileManager.default.enumerator(atPath: Self.sources.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        for file in files where file != "ShopYCLI/CLI/StderrDiagnostics.swift" {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("\"shopy: warning:") || line.contains("io.notice(") {
                offenders.append("\(file):\(number + 1)")
            }
        }
        XCTAssertEqual(offenders, [], "report through context.diagnostics (StderrDiagnostics prints)")
    }

    func testTheCoreNeverImportsTheCommandLine() throws {
        let core = Self.sources.appendingPathComponent("ShopYCore")
        let files = FileManager.default.enumerator(atPath: core.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        for file in files {
            let text = try String(contentsOf: core.appendingPathComponent(file), encoding: .utf8)
            XCTAssertFalse(text.contains("import ShopYCLI"), file)
        }
    }

    func testLikesImportDashReadsTheInjectedStdin() async throws {
        let home = Home()
        let export = #"[{"productId":"12345","title":"from stdin","price":1000,"likedAt":"2026-12-01T00:00:00Z"}]"#
        var io = IO.capture(environment: ["SHOPY_HOME": home.path], stdin: Array(export.utf8))
        io.launcher = NothingInstalledLauncher()
        let code = await ShopY.main(["likes", "import", "-"], io: io, transport: NoNetworkTransport())
        XCTAssertEqual(code, 0, io.stderr.text)
        let list = IO.capture(environment: ["SHOPY_HOME": home.path])
        _ = await ShopY.main(["likes", "--format", "tsv"], io: list, transport: NoNetworkTransport())
        XCTAssertTrue(list.stdout.text.contains("from stdin"), list.stdout.text + list.stderr.text)
    }
}
