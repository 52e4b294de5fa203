// Tests for Sources/ShopYCLI/Config and Commands/ConfigCommand.swift: `shopy config`, the
// precedence option > environment > config > default, and --quiet / --color / CLICOLOR_FORCE.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

/// In-process runs that share one SHOPY_HOME (so config persists between them) and may swap
/// the launcher.
final class Home {
    let path: String
    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-conv-\(UUID().uuidString)").path
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func run(_ arguments: [String], environment: [String: String] = [:], terminal: Bool = false, stderrTerminal: Bool = false,
             launcher: (any Launcher)? = nil) async -> CLIRun {
        var environment = environment
        environment["SHOPY_HOME"] = path
        var io = IO(stdout: OutputSink(), stderr: OutputSink(), environment: environment, stdoutIsTerminal: terminal,
                    stderrIsTerminal: stderrTerminal)
        if let launcher { io.launcher = launcher }
        let code = await ShopY.main(arguments, io: io, transport: NoNetworkTransport())
        return CLIRun(code: code, stdout: io.stdout.text, stderr: io.stderr.text)
    }
}

final class ConfigTests: XCTestCase {
    func rows(_ run: CLIRun) -> Int { run.stdout.split(separator: "\n").count }

    func testPrecedenceOptionEnvironmentConfigDefault() async {
        let home = Home()
        var run = await home.run(["search", "생활"])
        XCTAssertEqual(rows(run), 20, "built-in default")
        run = await home.run(["config", "set", "size", "5"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(run.stderr, "shopy: config size = 5\n")
        run = await home.run(["search", "생활"])
        XCTAssertEqual(rows(run), 5, "config beats the default")
        run = await home.run(["search", "생활"], environment: ["SHOPY_SIZE": "3"])
        XCTAssertEqual(rows(run), 3, "environment beats config")
        run = await home.run(["search", "생활", "--size", "2"], environment: ["SHOPY_SIZE": "3"])
        XCTAssertEqual(rows(run), 2, "option beats environment")

        run = await home.run(["config", "list"], environment: ["SHOPY_SORT": "asc"])
        XCTAssertEqual(run.code, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first?.split(separator: " ").map(String.init), ["KEY", "VALUE", "ORIGIN"])
        XCTAssertEqual(lines.count, 1 + ConfigKey.all.count)
        XCTAssertTrue(lines.contains { $0.hasPrefix("size ") && $0.contains(" 5 ") && $0.hasSuffix("config") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("sort ") && $0.hasSuffix("environment (SHOPY_SORT)") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("rate ") && $0.contains(" 8 ") && $0.hasSuffix("default") }, "\(lines)")

        run = await home.run(["config", "get", "size"])
        XCTAssertEqual(run.stdout, "5\n")
        run = await home.run(["config", "get", "size"], environment: ["SHOPY_SIZE": "7"])
        XCTAssertEqual(run.stdout, "7\n", "get shows the value in effect")
        run = await home.run(["config", "set", "size", "9"], environment: ["SHOPY_SIZE": "7"])
        XCTAssertTrue(run.stderr.contains("SHOPY_SIZE is set in the environment and takes precedence"), run.stderr)

        run = await home.run(["config", "unset", "size"])
        XCTAssertEqual(run.code, 0, run.stderr)
        run = await home.run(["search", "생활"])
        XCTAssertEqual(rows(run), 20, "unset: back to the default")
        run = await home.run(["config", "unset", "size"])
        XCTAssertEqual(run.stderr, "shopy: config size was not set\n")
    }

    func testConfigIsKeptInPreferences() async throws {
        let home = Home()
        _ = await home.run(["config", "set", "sort", "DSC"])
        let text = try String(contentsOfFile: home.path + "/preferences.json", encoding: .utf8)
        XCTAssertTrue(text.contains("\"config\":{\"sort\":\"dsc\"}"), text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.path + "/likes.json"), "config never rewrites the likes")
    }

    func testConfigJSON() async throws {
        let home = Home()
        _ = await home.run(["config", "set", "timeout", "2.5"])
        let run = await home.run(["config", "list", "--json"], environment: ["NO_COLOR": ""])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let entries = try XCTUnwrap(object["config"] as? [[String: Any]])
        XCTAssertEqual(entries.map { $0["key"] as? String }, ConfigKey.names)
        let timeout = try XCTUnwrap(entries.first { $0["key"] as? String == "timeout" })
        XCTAssertEqual(timeout["value"] as? String, "2.5")
        XCTAssertEqual(timeout["origin"] as? String, "config")
        let color = try XCTUnwrap(entries.first { $0["key"] as? String == "color" })
        XCTAssertEqual(color["value"] as? String, "never")
        XCTAssertEqual(color["origin"] as? String, "environment")
        XCTAssertEqual(color["variable"] as? String, "NO_COLOR")
        let get = await home.run(["config", "get", "timeout", "--json"])
        XCTAssertTrue(get.stdout.contains("\"origin\": \"config\""), get.stdout)
    }

    func testUnknownKeyAndBadValueListTheValidOnes() async {
        let home = Home()
        var run = await home.run(["config", "set", "szie", "5"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("valid keys: source, size, sort, format, color, quiet, rate, timeout"), run.stderr)
        XCTAssertTrue(run.stderr.contains("did you mean 'size'?"), run.stderr)
        run = await home.run(["config", "set", "sort", "cheap"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("valid values: sim, date, asc, dsc"), run.stderr)
        for (key, value) in [("size", "0"), ("size", "101"), ("rate", "1e3"), ("rate", "0.05"), ("timeout", "inf"), ("timeout", "0"), ("quiet", "maybe"), ("color", "sometimes")] {
            run = await home.run(["config", "set", key, value])
            XCTAssertEqual(run.code, 64, "\(key) \(value): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("valid values:"), run.stderr)
        }
        run = await home.run(["config", "get"])
        XCTAssertEqual(run.code, 64)
        run = await home.run(["config", "lst"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("did you mean 'shopy config list'?"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.path + "/preferences.json"), "nothing was written")
    }

    func testBadEnvironmentValueIsAUsageError() async {
        let run = await Home().run(["search", "생활"], environment: ["SHOPY_SORT": "cheap"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("SHOPY_SORT"), run.stderr)
        XCTAssertTrue(run.stderr.contains("sim, date, asc, dsc"), run.stderr)
    }

    func testConfigDefaultsReachEveryCommandThatTakesTheOption() async {
        let home = Home()
        _ = await home.run(["config", "set", "format", "json"])
        var run = await home.run(["search", "생활"])
        XCTAssertTrue(run.stdout.hasPrefix("{"), "format from config: \(run.stdout.prefix(40))")
        run = await home.run(["search", "생활", "--format", "csv"])
        XCTAssertTrue(run.stdout.hasPrefix("rank,productId"), "the option beats it")
        _ = await home.run(["config", "set", "format", "tsv"])
        run = await home.run(["search", "생활", "--json"])
        XCTAssertEqual(run.code, 0, "--json is the option; the config's tsv does not disagree with it: \(run.stderr)")
        run = await home.run(["status", "--no-probe", "--json"])
        XCTAssertNotEqual(run.code, 64, "status's own --format is not the listing format: \(run.stderr)")
        _ = await home.run(["config", "set", "source", "catalog"])
        run = await home.run(["search", "생활"])
        XCTAssertEqual(run.stderr, "", "a chosen catalog needs no notice")
        _ = await home.run(["config", "set", "rate", "50"])
        run = await home.run(["rank", "생활", "--mall", "다샵"])
        XCTAssertEqual(run.code, 0, run.stderr)
    }

    func testQuiet() async {
        let home = Home()
        var run = await home.run(["search", "생활"])
        XCTAssertTrue(run.stderr.hasPrefix("shopy: searching the offline catalog"), run.stderr)
        run = await home.run(["search", "생활", "--quiet"])
        XCTAssertEqual(run.stderr, "", "notices off")
        XCTAssertFalse(run.stdout.isEmpty)
        run = await home.run(["search", "생활", "-q", "--sort", "cheap"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.hasPrefix("shopy: invalid --sort"), "errors still print")
        _ = await home.run(["config", "set", "quiet", "yes"])
        run = await home.run(["search", "생활"])
        XCTAssertEqual(run.stderr, "")
        run = await home.run(["search", "생활"], environment: ["SHOPY_QUIET": "0"])
        XCTAssertTrue(run.stderr.hasPrefix("shopy: searching"), "the environment beats config")
    }

    func testColor() async {
        let home = Home()
        let esc = "\u{1B}["
        func table(_ extra: [String], _ env: [String: String] = [:], terminal: Bool = false) async -> String {
            await home.run(["search", "생활", "--format", "table", "--size", "2"] + extra, environment: env, terminal: terminal).stdout
        }
        var out = await table([])
        XCTAssertFalse(out.contains(esc), "auto: no colour in a pipe")
        out = await table([], terminal: true)
        XCTAssertTrue(out.contains(esc), "auto: colour on a terminal")
        out = await table(["--color", "always"])
        XCTAssertTrue(out.contains(esc))
        out = await table(["--color=never"], terminal: true)
        XCTAssertFalse(out.contains(esc))
        out = await table([], ["CLICOLOR_FORCE": "1"])
        XCTAssertTrue(out.contains(esc), "CLICOLOR_FORCE colours a pipe")
        out = await table([], ["CLICOLOR_FORCE": "0"])
        XCTAssertFalse(out.contains(esc), "CLICOLOR_FORCE=0 forces nothing")
        out = await table([], ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"])
        XCTAssertFalse(out.contains(esc), "NO_COLOR wins over CLICOLOR_FORCE")
        out = await table(["--color", "always"], ["NO_COLOR": "1"])
        XCTAssertTrue(out.contains(esc), "the option beats the environment")
        out = await table([], ["TERM": "dumb"], terminal: true)
        XCTAssertFalse(out.contains(esc))
        _ = await home.run(["config", "set", "color", "always"])
        out = await table([])
        XCTAssertTrue(out.contains(esc), "config color always")
        out = await table([], ["NO_COLOR": ""])
        XCTAssertFalse(out.contains(esc), "NO_COLOR beats config")
        // A near miss of a mode is refused; a word that is not (`--color blue`) is a search word
        // after a bare --color (BareColorOptionTests).
        let bad = await home.run(["search", "생활", "--color", "nevr"])
        XCTAssertEqual(bad.code, 64)
        XCTAssertTrue(bad.stderr.contains("auto, always, never"), bad.stderr)
    }
}
