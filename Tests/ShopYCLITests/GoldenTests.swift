// Golden tests: today's exact output (stdout, stderr, exit code) of every command in every
// format it accepts, every help text, the man page, completion scripts, and the usage errors,
// run in process against the offline catalog (and the emulator for the naver and DataLab paths)
// with a fixed clock, a fixed environment and a scratch SHOPY_HOME. The expected bytes are the
// files in Golden/; SHOPY_UPDATE_GOLDEN=1 rewrites them, the default run compares byte for byte.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator

/// One scripted session: steps run in order in one SHOPY_HOME; the file records every step.
struct GoldenSession {
    struct Step {
        var arguments: [String]
        var terminal = false
        var environment: [String: String] = [:]
    }
    var name: String
    var steps: [Step]
}

/// A launcher that has nothing installed: open prints the link, copy falls back or fails.
struct NothingInstalledLauncher: Launcher {
    func find(_ name: String, searchPath: String?) -> String? { nil }
    func run(_ argv: [String], input: [UInt8]?, attached: Bool, wait: Double) -> LaunchOutcome { .exited(127) }
}

enum Golden {
    /// 2026-12-01 12:00 in Korea (03:00 UTC).
    static let now = TrendsFixture.now
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static var updating: Bool { ProcessInfo.processInfo.environment["SHOPY_UPDATE_GOLDEN"] == "1" }

    /// Runs the session and returns its transcript, with the scratch home and the emulator's
    /// address replaced by fixed names.
    static func transcript(_ session: GoldenSession, base: [String: String], transport: any HTTPTransport,
                           replacing: [(String, String)] = []) async -> String {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-golden-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        var text = ""
        for step in session.steps {
            var environment = base
            environment["SHOPY_HOME"] = home
            environment["HOME"] = home
            for (key, value) in step.environment { environment[key] = value.replacingOccurrences(of: "$HOME", with: home) }
            let arguments = step.arguments.map { $0.replacingOccurrences(of: "$HOME", with: home) }
            var io = IO(stdout: OutputSink(), stderr: OutputSink(), environment: environment, stdoutIsTerminal: step.terminal,
                        stderrIsTerminal: false, terminalColumns: step.terminal ? 100 : nil, now: { now }, currentDirectory: home)
            io.launcher = NothingInstalledLauncher()
            let code = await ShopY.main(arguments, io: io, transport: transport)
            var out = "$ shopy \(step.arguments.joined(separator: " "))\(step.terminal ? "   # on a terminal" : "")\n"
            out += "[exit \(code)]\n[stdout]\n\(io.stdout.text)\n[stderr]\n\(io.stderr.text)\n\n"
            for (from, to) in [(home, "$HOME")] + replacing { out = out.replacingOccurrences(of: from, with: to) }
            text += out
        }
        return text
    }

    static func check(_ session: GoldenSession, base: [String: String] = [:], transport: any HTTPTransport = NoNetworkTransport(),
                      replacing: [(String, String)] = [], file: StaticString = #filePath, line: UInt = #line) async throws {
        let actual = await transcript(session, base: base, transport: transport, replacing: replacing)
        let url = directory.appendingPathComponent(session.name + ".txt")
        if updating {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = try? Data(contentsOf: url) else {
            return XCTFail("no golden file \(url.lastPathComponent); run with SHOPY_UPDATE_GOLDEN=1", file: file, line: line)
        }
        if expected != Data(actual.utf8) {
            let e = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first = (0..<min(e.count, a.count)).first { e[$0] != a[$0] } ?? min(e.count, a.count)
            let shownE = first < e.count ? String(e[first]) : "<end>"
            let shownA = first < a.count ? String(a[first]) : "<end>"
            XCTFail("\(session.name): differs from the golden file at line \(first + 1):\n  expected: \(shownE)\n  actual:   \(shownA)",
                    file: file, line: line)
        }
    }

    static func steps(_ list: [[String]], terminal: Bool = false) -> [GoldenSession.Step] {
        list.map { GoldenSession.Step(arguments: $0, terminal: terminal) }
    }

    static let formats = ["table", "tsv", "csv", "json", "jsonl"]
}

final class GoldenTests: XCTestCase {

    // MARK: - Help

    func testHelpTexts() async throws {
        var list: [[String]] = [[], ["--help"], ["-h"], ["--version"], ["-V"], ["help"]]
        for command in ShopY.commands {
            let name = command.spec.name
            list += [["help", name], [name, "--help"], [name, "-h"]]
            for sub in command.subcommands {
                list += [["help", name, sub.spec.name], [name, sub.spec.name, "--help"]]
            }
        }
        try await Golden.check(GoldenSession(name: "help", steps: Golden.steps(list)))
        try await Golden.check(GoldenSession(name: "help-narrow", steps: [
            .init(arguments: ["--help"], environment: ["COLUMNS": "40"]),
            .init(arguments: ["search", "--help"], environment: ["COLUMNS": "40"]),
            .init(arguments: ["help", "trends", "keywords"], environment: ["COLUMNS": "200"]),
        ]))
    }

    func testManPageAndCompletionScripts() async throws {
        try await Golden.check(GoldenSession(name: "man", steps: Golden.steps([["help", "--man"]])))
        try await Golden.check(GoldenSession(name: "completions", steps: Golden.steps([
            ["completions", "bash"], ["completions", "zsh"], ["completions", "fish"], ["completions"], ["completions", "tcsh"],
        ])))
        try await Golden.check(GoldenSession(name: "complete-words", steps: Golden.steps([
            ["__complete", ""], ["__complete", "se"], ["__complete", "search", "--"], ["__complete", "search", "--sort", ""],
            ["__complete", "likes", ""], ["__complete", "trends", ""], ["__complete", "config", "get", ""],
            ["search", "방충망", "--size", "3"], ["__complete", "open", ""], ["__complete", "search", ""],
            ["__complete", "popular", "--section", ""], ["__complete", "--format", ""], ["__complete", "doctor", "--format", ""],
        ])))
    }

    func testUsageErrors() async throws {
        try await Golden.check(GoldenSession(name: "usage-errors", steps: Golden.steps([
            ["serch", "x"], ["nosuchcommand"], ["--verbos"], ["-x"], ["help", "serch"], ["help", "nosuch"], ["help", "--man", "x"],
            ["search"], ["search", "x", "--size", "0"], ["search", "x", "--size", "abc"], ["search", "x", "--sort", "price"],
            ["search", "x", "--sot", "asc"], ["search", "x", "--page", "0"], ["search", "x", "--json", "--format", "csv"],
            ["search", "x", "--format", "xml"], ["search", "x", "--source", "web"], ["search", "x", "--source", "naver"],
            ["search", "x", "--timeout", "0"], ["search", "x", "--exclude", "new"], ["search", "x", "--color=sometimes"],
            ["popular", "--size", "101"], ["popular", "--save"], ["popular", "--reset", "--section", "x"],
            ["rank"], ["rank", "x"], ["rank", "x", "--mall", "m", "--depth", "0"], ["rank", "x", "--mall", "m", "--rate", "1000"],
            ["like"], ["like", "99"], ["like", "1.5"], ["unlike"], ["unlike", "12345"], ["likes", "export"], ["likes", "importx"],
            ["likes", "import"], ["likes", "import", "$HOME/none.json"], ["likes", "clear"],
            ["likes", "--sort", "rating"], ["history", "--remove"], ["history", "--on", "--off"],
            ["doctor", "x"], ["doctor", "--format", "csv"], ["doctor", "--format", "tsv"],
            ["status", "x"], ["status", "--format", "csv"], ["status", "--watch", "--format", "json"], ["status", "--timeout", "-1"],
            ["trends"], ["trends", "categories"], ["trends", "categoriez"], ["trends", "keywords", "x"],
            ["trends", "categories", "패션의류", "--from", "2026-02-30"], ["trends", "categories", "패션의류"],
            ["config", "get"], ["config", "get", "nosuch"], ["config", "set", "size", "0"], ["config", "sett"],
            ["open"], ["open", "1"], ["copy"], ["copy", "1"], ["open", "--id", "123"],
        ])))
    }

    // MARK: - Catalog commands

    func testSearchEveryFormat() async throws {
        var list: [[String]] = [["search", "방충망"], ["search", "방충망", "--json"]]
        for format in Golden.formats { list.append(["search", "방충망", "--size", "5", "--format", format]) }
        list += [
            ["search", "방충망", "--sort", "asc", "--size", "4"], ["search", "방충망", "--sort", "dsc", "--size", "4", "--page", "2"],
            ["search", "방충망", "--sort", "date", "--size", "3"], ["search", "방충망", "--naverpay", "--size", "3"],
            ["search", "노트북", "--exclude", "used,rental", "--size", "3"], ["search", "없는검색어xyz"],
            ["search", "방충망", "--page", "99"], ["search", "방충망", "--size", "3", "--quiet"], ["search", "방충망", "-v", "--size", "2"],
            ["search", "방충망", "--size", "3", "--color", "always", "--format", "table"], ["search", "방충망", "--source", "catalog", "--size", "2"],
        ]
        try await Golden.check(GoldenSession(name: "search", steps: Golden.steps(list)))
        try await Golden.check(GoldenSession(name: "search-terminal", steps: Golden.steps([
            ["search", "방충망", "--size", "5"], ["search", "방충망", "--size", "3", "--format", "tsv"], ["search", "방충망", "--size", "3", "--color", "never"],
        ], terminal: true)))
    }

    func testPopularEveryFormat() async throws {
        var list: [[String]] = [["popular"], ["popular", "--json"]]
        for format in Golden.formats { list.append(["popular", "--size", "2", "--format", format]) }
        list += [["popular", "--section", "방충망", "-s", "노트북", "--size", "3"], ["popular", "--section", "방충망", "--save"],
                 ["popular", "--size", "2"], ["popular", "--reset"], ["popular", "--size", "1"]]
        try await Golden.check(GoldenSession(name: "popular", steps: Golden.steps(list)))
        try await Golden.check(GoldenSession(name: "popular-terminal", steps: Golden.steps([["popular", "--size", "2"]], terminal: true)))
    }

    func testRankEveryFormat() async throws {
        var list: [[String]] = [["rank", "방충망", "--title", "방충망"], ["rank", "방충망", "--title", "방충망", "--all"]]
        for format in Golden.formats { list.append(["rank", "방충망", "--title", "방충망", "--all", "--depth", "10", "--format", format]) }
        list += [["rank", "방충망", "--title", "없는제목xyz"], ["rank", "방충망", "--title", "없는제목xyz", "--json"],
                 ["rank", "방충망", "--product", "1", "--depth", "5"]]
        try await Golden.check(GoldenSession(name: "rank", steps: Golden.steps(list)))
        try await Golden.check(GoldenSession(name: "rank-terminal", steps: Golden.steps([["rank", "방충망", "--title", "방충망", "--all", "--depth", "5"]], terminal: true)))
    }

    func testLikesLifecycleEveryFormat() async throws {
        var list: [[String]] = [["likes"], ["search", "방충망", "--size", "5"], ["like", "1", "3"], ["like", "2"], ["like", "2"], ["likes"]]
        for format in Golden.formats { list.append(["likes", "--format", format]) }
        list += [["likes", "--sort", "price"], ["likes", "--sort", "title"], ["likes", "export", "$HOME/out.json"],
                 ["likes", "export", "$HOME/out.json"], ["likes", "export", "$HOME/out.json", "--force"],
                 ["unlike", "1"], ["unlike", "1"], ["likes", "--json"], ["likes", "clear", "--yes"], ["likes"],
                 ["likes", "import", "$HOME/out.json"], ["likes", "import", "$HOME/out.json"], ["likes", "--format", "tsv"],
                 ["popular", "--size", "2"], ["like", "1.2"], ["open", "1.2"], ["copy", "1.1"], ["open", "--id", "nosuchid"]]
        try await Golden.check(GoldenSession(name: "likes", steps: Golden.steps(list)))
    }

    func testHistory() async throws {
        var list: [[String]] = [["history"], ["search", "방충망", "--size", "1"], ["search", "노트북", "--size", "1"], ["search", "방충망", "--size", "1"]]
        for format in ["table", "tsv", "json", "jsonl", "csv"] { list.append(["history", "--format", format]) }
        list += [["history"], ["history", "--remove", "노트북"], ["history"], ["history", "--off"], ["search", "텐트", "--size", "1"],
                 ["history"], ["history", "--on"], ["history", "--clear"], ["history", "--json"]]
        try await Golden.check(GoldenSession(name: "history", steps: Golden.steps(list)))
    }

    func testDoctor() async throws {
        try await Golden.check(GoldenSession(name: "doctor", steps: Golden.steps([
            ["doctor"], ["doctor", "--json"], ["doctor", "--format", "table"], ["doctor", "--format", "jsonl"],
            ["search", "방충망", "--size", "2"], ["like", "1"], ["doctor"], ["doctor", "--format", "json"], ["doctor", "--repair"],
        ])))
    }

    func testConfig() async throws {
        try await Golden.check(GoldenSession(name: "config", steps: [
            .init(arguments: ["config"]), .init(arguments: ["config", "list"]), .init(arguments: ["config", "--json"]),
            .init(arguments: ["config", "list", "--json"]), .init(arguments: ["config", "get", "size"]),
            .init(arguments: ["config", "get", "size", "--json"]), .init(arguments: ["config", "set", "size", "7"]),
            .init(arguments: ["config", "get", "size"]), .init(arguments: ["search", "방충망"]),
            .init(arguments: ["config", "set", "format", "json"]), .init(arguments: ["search", "방충망", "--size", "1"]),
            .init(arguments: ["config", "list"]), .init(arguments: ["config", "unset", "format"]), .init(arguments: ["config", "unset", "size"]),
            .init(arguments: ["config", "list"], environment: ["SHOPY_SIZE": "3", "NO_COLOR": "1"]),
        ]))
    }

    func testOpenCopyWithoutTools() async throws {
        try await Golden.check(GoldenSession(name: "open-copy", steps: Golden.steps([
            ["search", "방충망", "--size", "3"], ["open", "1"], ["open", "1", "2"], ["copy", "2"], ["open", "4"], ["open", "--id", "0"],
        ]) + [GoldenSession.Step(arguments: ["copy", "1"], terminal: true)]))
    }

    func testStatusWithoutTheNetwork() async throws {
        // The machine's own network is not fixed, so only what does not read it is golden here.
        try await Golden.check(GoldenSession(name: "status-errors", steps: Golden.steps([
            ["status", "--format", "table"], ["status", "--json", "--format", "jsonl"], ["status", "--timeout", "x"],
        ])))
    }

    // MARK: - Emulator (naver, DataLab)

    func testNaverSourceOnTheEmulator() async throws {
        var config = EmulatorConfig()
        config.log = false
        let server = EmulatorServer(config: config, catalog: .embedded)
        _ = try server.start()
        addTeardownBlock { server.stop() }
        let base = ["SHOPY_API_BASE": server.baseURL, "NAVER_CLIENT_ID": "emulator-id", "NAVER_CLIENT_SECRET": "emulator-secret"]
        var list: [[String]] = []
        for format in Golden.formats { list.append(["search", "방충망", "--size", "3", "--format", format]) }
        list += [["search", "방충망", "--sort", "asc", "--size", "2", "--page", "2"], ["search", "없는검색어xyz"],
                 ["popular", "--section", "방충망", "--size", "2"], ["popular", "--section", "방충망", "--size", "2", "--json"],
                 ["rank", "방충망", "--title", "방충망", "--depth", "20"], ["rank", "방충망", "--title", "방충망", "--all", "--depth", "10", "--json"],
                 ["like", "1"], ["likes", "--format", "tsv"], ["search", "방충망", "--source", "catalog", "--size", "1"]]
        try await Golden.check(GoldenSession(name: "naver", steps: Golden.steps(list)), base: base, transport: SystemTransport.shared,
                               replacing: [(server.baseURL, "$BASE")])
    }

    func testNaverRetiredOnTheEmulator() async throws {
        var config = EmulatorConfig()
        config.retired = true
        let server = EmulatorServer(config: config, catalog: .embedded)
        _ = try server.start()
        addTeardownBlock { server.stop() }
        let base = ["SHOPY_API_BASE": server.baseURL, "NAVER_CLIENT_ID": "emulator-id", "NAVER_CLIENT_SECRET": "emulator-secret"]
        try await Golden.check(GoldenSession(name: "naver-retired", steps: Golden.steps([
            ["search", "방충망"], ["popular", "--size", "1"], ["rank", "방충망", "--title", "x"],
        ])), base: base, transport: SystemTransport.shared, replacing: [(server.baseURL, "$BASE")])
    }

    func testTrendsOnTheEmulator() async throws {
        let server = try startDataLab()
        let base = TrendsFixture.apiHub(server)
        var list: [[String]] = []
        for format in Golden.formats { list.append(["trends", "categories", "패션의류", "화장품/미용", "--format", format]) }
        list += [["trends", "categories", "패션의류", "--unit", "month", "--last", "3m"],
                 ["trends", "categories", "패션의류", "--by", "device", "--json"],
                 ["trends", "keywords", "패션의류", "원피스", "니트", "--last", "4w"],
                 ["trends", "keywords", "패션의류", "원피스", "--by", "gender", "--format", "tsv"]]
        try await Golden.check(GoldenSession(name: "trends", steps: Golden.steps(list)), base: base, transport: SystemTransport.shared,
                               replacing: [(server.baseURL, "$BASE")])
    }
}
