// Tests for issue 12's parser, config and doctor findings: a bad SHOPY_* value never beats the
// command line and never stops config or doctor (they report it); doctor counts the journal's
// changes and transactions; paths from the environment reach the terminal cleaned; the
// environment and files table covers every variable the sources read and docs/ lists it.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
import ShopYTestSupport

final class SettingsDiagnosticsTests: XCTestCase {
    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    // MARK: (a) bad environment values

    func testTheCommandLineBeatsABadEnvironmentValue() async {
        for (variable, value, arguments) in [
            ("SHOPY_FORMAT", "bogus", ["search", "방충망", "--format", "json"]),
            ("SHOPY_FORMAT", "bogus", ["search", "방충망", "--json"]),
            ("SHOPY_TIMEOUT", "x", ["search", "방충망", "--timeout", "2"]),
            ("SHOPY_SIZE", "0", ["search", "방충망", "--size", "3"]),
            ("SHOPY_SORT", "cheap", ["search", "방충망", "--sort", "asc"]),
            ("SHOPY_COLOR", "bogus", ["search", "방충망", "--color", "never"]),
            ("SHOPY_QUIET", "maybe", ["search", "방충망", "--quiet"]),
        ] {
            let run = await Shell.run(arguments, environment: [variable: value])
            XCTAssertEqual(run.code, 0, "\(variable)=\(value) \(arguments): \(run.stderr)")
            XCTAssertFalse(run.stderr.contains(variable), "the ignored value is not an error: \(run.stderr)")
        }
        // Without the option the value would be used: 64, naming it.
        let run = await Shell.run(["search", "방충망"], environment: ["SHOPY_TIMEOUT": "x"])
        XCTAssertEqual(run.code, 64)
        XCTAssertEqual(run.stderr, "shopy: invalid SHOPY_TIMEOUT value 'x' for timeout; valid values: seconds, more than 0 and at most 3600\n")
        // A command that does not take the option is not stopped by it.
        let status = await Shell.run(["status", "--no-probe", "--format", "json"], environment: ["SHOPY_SIZE": "x", "SHOPY_FORMAT": "bogus"])
        XCTAssertNotEqual(status.code, 64, status.stderr)
        // A bad stored value: the same rules.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-settings-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let set = await Shell.run(["config", "set", "size", "7"], environment: ["SHOPY_HOME": home])
        XCTAssertEqual(set.code, 0, set.stderr)
        let preferences = home + "/preferences.json"
        let text = try? String(contentsOfFile: preferences, encoding: .utf8)
        try? text?.replacingOccurrences(of: "\"7\"", with: "\"seven\"").write(toFile: preferences, atomically: true, encoding: .utf8)
        let given = await Shell.run(["search", "방충망", "--size", "2"], environment: ["SHOPY_HOME": home])
        XCTAssertEqual(given.code, 0, given.stderr)
        let used = await Shell.run(["search", "방충망"], environment: ["SHOPY_HOME": home])
        XCTAssertEqual(used.code, 64)
        XCTAssertTrue(used.stderr.hasPrefix("shopy: invalid config value 'seven' for size"), used.stderr)
    }

    func testConfigListGetUnsetWorkAndMarkTheBadValue() async throws {
        let environment = ["SHOPY_FORMAT": "bogus", "SHOPY_TIMEOUT": "x", "SHOPY_COLOR": "bogus"]
        let list = await Shell.run(["config", "list"], environment: environment)
        XCTAssertEqual(list.code, 0, list.stderr)
        let format = try XCTUnwrap(list.stdout.split(separator: "\n").first { $0.hasPrefix("format ") })
        XCTAssertTrue(format.contains("bogus") && format.contains("environment (SHOPY_FORMAT) · invalid, not used"), String(format))
        XCTAssertTrue(list.stderr.contains("shopy: warning: invalid SHOPY_TIMEOUT value 'x' for timeout"), list.stderr)
        let listJSON = await Shell.run(["config", "list", "--json"], environment: environment)
        XCTAssertEqual(listJSON.code, 0, listJSON.stderr)
        let entries = try XCTUnwrap(try json(listJSON.stdout)["config"] as? [[String: Any]])
        let timeout = try XCTUnwrap(entries.first { $0["key"] as? String == "timeout" })
        XCTAssertEqual(timeout["value"] as? String, "x")
        XCTAssertEqual(timeout["variable"] as? String, "SHOPY_TIMEOUT")
        XCTAssertEqual(timeout["problem"] as? String, "invalid SHOPY_TIMEOUT value 'x' for timeout; valid values: seconds, more than 0 and at most 3600")
        XCTAssertTrue(entries.first { $0["key"] as? String == "size" }?["problem"] is NSNull)
        let get = await Shell.run(["config", "get", "format"], environment: environment)
        XCTAssertEqual(get.code, 0, get.stderr)
        XCTAssertEqual(get.stdout, "bogus\n")
        XCTAssertTrue(get.stderr.contains("invalid SHOPY_FORMAT value 'bogus'"), get.stderr)
        let unset = await Shell.run(["config", "unset", "size"], environment: environment)
        XCTAssertEqual(unset.code, 0, unset.stderr)
        let set = await Shell.run(["config", "set", "timeout", "3"], environment: environment)
        XCTAssertEqual(set.code, 0, set.stderr)
        XCTAssertTrue(set.stderr.contains("SHOPY_TIMEOUT is set in the environment and takes precedence"), set.stderr)
    }

    func testDoctorReportsABadValueAsAProblem() async throws {
        let environment = ["SHOPY_TIMEOUT": "x", "SHOPY_COLOR": "bogus"]
        let text = await Shell.run(["doctor"], environment: environment)
        XCTAssertEqual(text.code, 65, text.stderr)
        XCTAssertTrue(text.stdout.contains("  SHOPY_TIMEOUT     refused: invalid SHOPY_TIMEOUT value 'x' for timeout"), text.stdout)
        XCTAssertTrue(text.stdout.contains("  SHOPY_COLOR       refused: "), text.stdout)
        let report = await Shell.run(["doctor", "--json"], environment: environment)
        XCTAssertEqual(report.code, 65)
        let settings = try XCTUnwrap(try json(report.stdout)["settings"] as? [[String: Any]])
        XCTAssertEqual(settings.map { $0["variable"] as? String }, ["SHOPY_COLOR", "SHOPY_TIMEOUT"])
        XCTAssertEqual(settings.last?["value"] as? String, "x")
        let clean = await Shell.run(["doctor", "--json"])
        XCTAssertEqual(clean.code, 0)
        XCTAssertEqual((try json(clean.stdout)["settings"] as? [Any])?.count, 0)
    }

    // MARK: (d) what the journal line counts

    func testDoctorCountsChangesAndTransactions() async throws {
        XCTAssertEqual(DoctorCommand.journalSummary(changes: 1, transactions: 1), "1 change in 1 transaction since the snapshot")
        XCTAssertEqual(DoctorCommand.journalSummary(changes: 3, transactions: 2), "3 changes in 2 transactions since the snapshot")
        XCTAssertEqual(DoctorCommand.journalSummary(changes: 1_200, transactions: 1), "1,200 changes in 1 transaction since the snapshot")
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-journal-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: home) }
        let env = ["SHOPY_HOME": home]
        for arguments in [["search", "방충망", "--size", "3"], ["like", "1", "2"], ["like", "3"]] {
            let run = await Shell.run(arguments, environment: env)
            XCTAssertEqual(run.code, 0, run.stderr)
        }
        // One more transaction holding two changes, as a batch unlike writes it.
        let listed = try String(contentsOfFile: home + "/state.json", encoding: .utf8)
        let ids = try NSRegularExpression(pattern: "\"productId\":\"([0-9]+)\"").matches(in: listed, range: NSRange(listed.startIndex..., in: listed))
            .map { String(listed[Range($0.range(at: 1), in: listed)!]) }
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: home + "/likes.journal"))
        handle.seekToEndOfFile()
        handle.write(Data(LikesJournal.line([.remove(ids[0]), .remove(ids[1])])))
        handle.closeFile()
        let doctor = await Shell.run(["doctor"], environment: env)
        XCTAssertEqual(doctor.code, 0, doctor.stderr)
        let journal = try XCTUnwrap(doctor.stdout.split(separator: "\n").first { $0.contains("likes.journal") })
        XCTAssertTrue(journal.contains("3 changes in 2 transactions since the snapshot"), String(journal))
        XCTAssertFalse(doctor.stdout.contains("1 changes"))
    }

    // MARK: (e) paths from the environment are cleaned

    func testDoctorCleansAHostileHome() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-hostile-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let home = base + "/a\u{1B}[31mred\nline\u{07}"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: home + "/state.json"))
        let env = ["SHOPY_HOME": home]
        for arguments in [["doctor"], ["doctor", "--repair"]] {
            let run = await Shell.run(arguments, environment: env)
            XCTAssertFalse(run.stdout.contains("\u{1B}") || run.stdout.contains("\u{07}"), "\(arguments): \(run.stdout.debugDescription)")
            XCTAssertFalse(run.stdout.contains("red\nline"), "\(arguments): a newline in the path cannot start a line")
            XCTAssertTrue(run.stdout.hasPrefix("files in " + Sanitizer.clean(home)), run.stdout)
            if arguments.count == 2 {
                XCTAssertTrue(run.stdout.contains("moved aside to " + Sanitizer.clean(home) + "/state.damaged-"), run.stdout)
            }
        }
        // JSON escapes it, and reads back to the very path.
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: home + "/state.json"))
        let report = await Shell.run(["doctor", "--json", "--repair"], environment: env)
        XCTAssertTrue(report.stdout.contains("\\u001b") || report.stdout.contains("\\u001B"), report.stdout)
        XCTAssertFalse(report.stdout.contains("\u{1B}"))
        let object = try json(report.stdout)
        XCTAssertEqual(object["directory"] as? String, home)
        let files = try XCTUnwrap(object["files"] as? [[String: Any]])
        let state = try XCTUnwrap(files.first { $0["name"] as? String == "state.json" })
        XCTAssertEqual(state["path"] as? String, home + "/state.json")
        XCTAssertTrue((state["actions"] as? [String])?.first?.hasPrefix("moved aside to " + home + "/state.damaged-") ?? false, "\(state)")
    }

    // MARK: (c) one table for the environment and the files

    static var root: URL { Repository.root() }

    func testEveryShopyVariableTheSourcesReadIsInTheTable() throws {
        let names = Set(EnvironmentTable.variables.flatMap(\.names))
        let pattern = try NSRegularExpression(pattern: "\"(SHOPY_[A-Z0-9_]+)\"")
        var found = Set<String>()
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Sources").path))
        for case let file as String in enumerator where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: Self.root.appendingPathComponent("Sources/" + file).path, encoding: .utf8)
            guard text.contains("SHOPY_") else { continue }
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                found.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        XCTAssertTrue(found.contains("SHOPY_HOME") && found.contains("SHOPY_LIBCURL") && found.contains("SHOPY_LIKES_JOURNAL_LIMIT"), "\(found)")
        for variable in found.sorted() where variable != "SHOPY_UPDATE_GOLDEN" {
            XCTAssertTrue(names.contains(variable), "\(variable) is read in Sources but missing from EnvironmentTable")
        }
        for variable in ["NAVER_API_HUB_KEY_ID", "NAVER_API_HUB_KEY", "SHOPY_DATALAB_BASE"] { XCTAssertTrue(names.contains(variable), variable) }
    }

    func testManPageAndDocsListTheWholeTable() async throws {
        let page = await Shell.run(["help", "--man"]).stdout
        let environment = try XCTUnwrap(page.components(separatedBy: ".SH ENVIRONMENT\n").last?.components(separatedBy: ".SH FILES").first)
        let files = try XCTUnwrap(page.components(separatedBy: ".SH FILES\n").last?.components(separatedBy: ".SH EXIT STATUS").first)
        // The user docs: the variables in docs/environment.md, the files in docs/files.md.
        func section(_ heading: String, of path: String) throws -> String {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            let parts = text.components(separatedBy: "\n## \(heading)\n")
            XCTAssertEqual(parts.count, 2, "\(path) has one '## \(heading)' section")
            return try XCTUnwrap(parts.last?.components(separatedBy: "\n## ").first)
        }
        let docsEnvironment = try section("Variables", of: "docs/environment.md")
        let docsFiles = try section("The files", of: "docs/files.md")
        for row in EnvironmentTable.variables {
            XCTAssertTrue(environment.contains(".TP\n" + ManPage.text(row.label) + "\n"), row.label)
            for name in row.names { XCTAssertTrue(docsEnvironment.contains("`\(name)`"), "docs/environment.md's Variables lacks \(name)") }
        }
        for row in EnvironmentTable.files {
            XCTAssertTrue(files.contains(ManPage.text(row.label) + "\n"), row.label)
            for name in row.names { XCTAssertTrue(docsFiles.contains("`\(name)`"), "docs/files.md's files lack \(name)") }
        }
    }
}

final class ConfigReachTests: XCTestCase {
    /// A key of a command reaches its subcommands (`trends categories`), and every command a key
    /// names declares the option the key is the default of (the config layer fills options by
    /// name, so a rename would otherwise go unnoticed).
    func testKeysReachSubcommandsAndNameDeclaredOptions() async {
        let run = await Shell.run(["trends", "categories", "--list", "패션"], environment: ["SHOPY_FORMAT": "json"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertTrue(run.stdout.hasPrefix("{") || run.stdout.hasPrefix("["), run.stdout)
        let tree = CommandTree.all(ShopY.commands.map { $0.fullSpec })
        for key in ConfigKey.all where key.name != "catalog.record" {
            for path in key.commands {
                let specs = tree.filter { $0.path == path || $0.path.hasPrefix(path + " ") }
                XCTAssertTrue(specs.contains { $0.spec.option(named: key.option) != nil }, "\(key.name): no command under '\(path)' takes --\(key.option)")
            }
        }
        XCTAssertTrue(ConfigKey.all.first { $0.name == "timeout" }!.applies(to: "trends keywords"))
        XCTAssertFalse(ConfigKey.all.first { $0.name == "sort" }!.applies(to: "rank"))
    }
}
