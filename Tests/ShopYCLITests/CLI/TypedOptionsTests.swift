// Tests for Sources/ShopYCLI/CLI/Option.swift, CommonOptions.swift and CommandTree.swift:
// options declared once and read through the declaration, the formats each command accepts,
// subcommands to any depth (a three-level tree of test commands), numbers without whitespace.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
import ShopYTestSupport

/// `shopy tree`, `shopy tree branch`, `shopy tree branch leaf --count N`: a three-level tree.
struct TreeCommand: Command {
    static let spec = CommandSpec(name: "tree", abstract: "The root of a test tree.")
    static var subcommands: [any Command.Type] { [BranchCommand.self] }
    init(_ parsed: ParsedArguments) throws(UsageError) {}
    func run(_ context: Context) async throws -> ExitCode {
        context.io.stdout.line("tree")
        return .ok
    }
}

struct BranchCommand: Command {
    static let spec = CommandSpec(name: "branch", abstract: "A branch of the test tree.")
    static var subcommands: [any Command.Type] { [LeafCommand.self, TwigCommand.self] }
    init(_ parsed: ParsedArguments) throws(UsageError) {}
    func run(_ context: Context) async throws -> ExitCode {
        context.io.stdout.line("branch")
        return .ok
    }
}

struct LeafCommand: Command {
    static let count = Option.value("count", short: "n", value: "n", help: "How many leaves.", type: .integer(1...9), default: 1)
    static let colour = Option.optional("shade", value: "shade", help: "Its shade.", type: ValueType<ShopYBase.SortOrder>.choice([.asc, .dsc]))
    static let formats = FormatOptions(accepting: [OutputFormat.tsv, .json])
    static let spec = CommandSpec(name: "leaf", abstract: "A leaf, three levels down.", options: [count.spec, colour.spec] + formats.specs)
    let count: Int
    let format: OutputFormat?
    init(_ parsed: ParsedArguments) throws(UsageError) {
        count = try Self.count.read(parsed)
        format = try Self.formats.read(parsed)
    }
    func run(_ context: Context) async throws -> ExitCode {
        context.io.stdout.line("leaf \(count) \(format?.rawValue ?? "-")")
        return .ok
    }
}

struct TwigCommand: Command {
    static let spec = CommandSpec(name: "twig", abstract: "Another one at the third level.")
    init(_ parsed: ParsedArguments) throws(UsageError) {}
    func run(_ context: Context) async throws -> ExitCode { .ok }
}

final class TypedOptionsTests: XCTestCase {
    let tree: [any Command.Type] = [TreeCommand.self]

    func runTree(_ arguments: [String]) async -> CLIRun {
        let io = IO.capture(environment: ["SHOPY_HOME": "/nonexistent/shopy-typed-options"])
        let code = await ShopY.run(arguments, io: io, transport: NoNetworkTransport(), network: SystemNetworkProvider(), commands: tree)
        return CLIRun(code: code.rawValue, stdout: io.stdout.text, stderr: io.stderr.text)
    }

    // MARK: Declarations

    func testAnOptionIsReadThroughItsDeclaration() throws {
        let parsed = try ArgumentParser.parse(["-n", "3", "--shade", "DSC", "--json"], for: LeafCommand.spec, commandPath: "tree branch leaf")
        XCTAssertEqual(try LeafCommand.count.read(parsed), 3)
        XCTAssertEqual(try LeafCommand.colour.read(parsed), .dsc)
        XCTAssertEqual(try LeafCommand.formats.read(parsed), .json)
        let empty = try ArgumentParser.parse([], for: LeafCommand.spec, commandPath: "tree branch leaf")
        XCTAssertEqual(try LeafCommand.count.read(empty), 1, "the default")
        XCTAssertNil(try LeafCommand.colour.read(empty))
        XCTAssertFalse(LeafCommand.count.isGiven(empty))
        // The standard one-line messages.
        let bad = try ArgumentParser.parse(["--count", "12", "--shade", "sim"], for: LeafCommand.spec, commandPath: "l")
        XCTAssertThrowsError(try LeafCommand.count.read(bad)) { error in
            XCTAssertEqual((error as? UsageError)?.message, "invalid --count 12: must be from 1 to 9")
        }
        XCTAssertThrowsError(try LeafCommand.colour.read(bad)) { error in
            XCTAssertEqual((error as? UsageError)?.message, "invalid --shade 'sim'; valid values: asc, dsc")
        }
        // The parser knows which options the command declared (an undeclared read traps).
        XCTAssertEqual(parsed.declared?.contains("count"), true)
        XCTAssertEqual(parsed.declared?.contains("size"), false)
    }

    func testListStringCheckAndCheckedTypes() throws {
        let words = Option.list("word", value: "w", help: "Words.", type: .string { text, option throws(UsageError) in
            if text.isEmpty { throw UsageError("--\(option) is empty") }
        })
        let even = Option.value("even", value: "n", help: "An even number.", type: ValueType<Int>.integer(0...100).checked { value, option throws(UsageError) in
            if value % 2 != 0 { throw UsageError("invalid --\(option) \(value): must be even") }
        }, default: 0)
        let spec = CommandSpec(name: "t", abstract: "t", options: [words.spec, even.spec])
        XCTAssertTrue(words.spec.repeatable)
        let parsed = try ArgumentParser.parse(["--word", "a", "--word=b", "--even", "4"], for: spec, commandPath: "t")
        XCTAssertEqual(try words.read(parsed), ["a", "b"])
        XCTAssertEqual(try even.read(parsed), 4)
        XCTAssertThrowsError(try words.read(try ArgumentParser.parse(["--word", ""], for: spec, commandPath: "t")))
        XCTAssertThrowsError(try even.read(try ArgumentParser.parse(["--even", "3"], for: spec, commandPath: "t"))) { error in
            XCTAssertEqual((error as? UsageError)?.message, "invalid --even 3: must be even")
        }
    }

    /// No command reads an option by its name as a string: every file of the CLI is scanned
    /// (the string accessors and `CommonOptions` are gone, so such a lookup does not compile
    /// either). `Option.swift` is the one place that builds an `OptionSpec`.
    func testNoCommandHasStringLookups() throws {
        let root = Repository.root()
        let base = root.appendingPathComponent("Sources/ShopYCLI")
        let files = (FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []).filter { $0.hasSuffix(".swift") }.sorted()
        for folder in ["Commands", "CLI", "Completion", "Config", "Trends", "Widget", "Browse"] {
            XCTAssertTrue(files.contains { $0.hasPrefix(folder + "/") }, folder)
        }
        XCTAssertTrue(files.contains("Commands/LikesRefreshCommand.swift") && files.contains("Commands/CatalogCommand.swift"))
        for file in files {
            let text = try String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
            for lookup in ["parsed.value(", "parsed.flag(", "parsed.all(", "parsed.has(", "CommonOptions.", "OptionSpec("] where !(file == "CLI/Option.swift" && lookup == "OptionSpec(") {
                XCTAssertFalse(text.contains(lookup), "\(file) uses \(lookup)")
            }
        }
    }

    // MARK: Formats a command accepts

    func testEachCommandListsAndAcceptsItsOwnFormats() async {
        let help = await Shell.run(["help", "doctor"])
        XCTAssertTrue(help.stdout.contains("--format <format>       Output: table (default) or json."), help.stdout)
        XCTAssertFalse(help.stdout.contains("jsonl"))
        for format in ["csv", "tsv", "jsonl"] {
            let run = await Shell.run(["doctor", "--format", format])
            XCTAssertEqual(run.code, 64, format)
            XCTAssertEqual(run.stderr.split(separator: "\n").first, "shopy: invalid --format '\(format)'; valid values: table, json")
        }
        let json = await Shell.run(["doctor", "--format", "json"])
        XCTAssertEqual(json.code, 0, json.stderr)
        let completer = Completer(commands: ShopY.commands.map { $0.fullSpec }, store: nil)
        XCTAssertEqual(completer.complete(["doctor", "--format", ""]), .candidates([
            .init(value: "table", description: "format"), .init(value: "json", description: "format")]))
        let status = completer.complete(["status", "--format", ""])
        guard case .candidates(let values) = status else { return XCTFail("\(status)") }
        XCTAssertEqual(values.map(\.value), ["text", "json", "jsonl"])
        let page = await Shell.run(["help", "--man"])
        let doctor = page.stdout.components(separatedBy: ".SS shopy doctor")[1].components(separatedBy: ".SS ")[0]
        XCTAssertTrue(doctor.contains("Output: table (default) or json."), doctor)
        // A format a test command does not take, at the third level.
        let leaf = await runTree(["tree", "branch", "leaf", "--format", "table"])
        XCTAssertEqual(leaf.code, 64)
        XCTAssertEqual(leaf.stderr, "shopy: invalid --format 'table'; valid values: tsv, json\n")
    }

    // MARK: Subcommands to any depth

    func testThreeLevelsRunHelpAndSuggest() async {
        var run = await runTree(["tree", "branch", "leaf", "-n", "3", "--json"])
        XCTAssertEqual(run.code, 0, run.stderr)
        XCTAssertEqual(run.stdout, "leaf 3 json\n")
        run = await runTree(["tree", "branch"])
        XCTAssertEqual(run.stdout, "branch\n")
        run = await runTree(["tree", "branch", "leaf", "--help"])
        XCTAssertEqual(run.code, 0)
        XCTAssertTrue(run.stdout.contains("USAGE: shopy tree branch leaf [--count <n>]"), run.stdout)
        let viaHelp = await runTree(["help", "tree", "branch", "leaf"])
        XCTAssertEqual(viaHelp.stdout, run.stdout)
        run = await runTree(["tree", "branch", "--help"])
        XCTAssertTrue(run.stdout.contains("SUBCOMMANDS:\n  leaf"), run.stdout)
        // Did-you-mean at every level.
        run = await runTree(["tree", "branhc"])
        XCTAssertEqual(run.code, 64)
        XCTAssertEqual(run.stderr, "shopy: unknown subcommand 'tree branhc'\nhint: did you mean 'shopy tree branch'?\n")
        run = await runTree(["tree", "branch", "leef"])
        XCTAssertEqual(run.stderr, "shopy: unknown subcommand 'tree branch leef'\nhint: did you mean 'shopy tree branch leaf'?\n")
        run = await runTree(["tree", "branch", "zzzzzz"])
        XCTAssertEqual(run.stderr, "shopy: unknown subcommand 'tree branch zzzzzz'\nhint: subcommands: leaf, twig\n")
        run = await runTree(["help", "tree", "branch", "leef"])
        XCTAssertEqual(run.code, 64)
        XCTAssertEqual(run.stderr, "shopy: no help for unknown subcommand 'tree branch leef'\nhint: did you mean 'tree branch leaf'?\n")
        run = await runTree(["help", "tree", "branch", "leaf", "more"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("'shopy tree branch leaf' has no subcommands"), run.stderr)
        run = await runTree(["tree", "branch", "leaf", "--cuont", "2"])
        XCTAssertEqual(run.stderr, "shopy: unknown option '--cuont' for 'shopy tree branch leaf'\nhint: did you mean '--count'?\n")
    }

    func testCompletionsAndManPageCoverNestedSubcommands() {
        let specs = tree.map { $0.fullSpec }
        let completer = Completer(commands: specs, store: nil)
        func values(_ words: [String]) -> [String] {
            guard case .candidates(let found) = completer.complete(words) else { return [] }
            return found.map(\.value)
        }
        XCTAssertEqual(values(["tree", ""]), ["branch"])
        XCTAssertEqual(values(["tree", "branch", ""]), ["leaf", "twig"])
        XCTAssertEqual(values(["tree", "branch", "leaf", "--c"]), ["--count", "--color"])
        XCTAssertEqual(values(["tree", "branch", "leaf", "--shade", ""]), ["asc", "dsc"])
        XCTAssertEqual(values(["tree", "branch", "leaf", "--format="]), ["--format=tsv", "--format=json"])
        XCTAssertEqual(values(["help", "tree", "branch", ""]), ["leaf", "twig"])
        let page = ManPage.render(commands: specs, version: "test")
        for path in ["tree", "tree branch", "tree branch leaf", "tree branch twig"] {
            XCTAssertTrue(page.contains(".SS shopy \(path)"), path)
        }
        XCTAssertTrue(page.contains("\\-\\-count"))
        // The real tree: every level of every command is in the man page.
        let real = ManPage.render(commands: ShopY.commands.map { $0.fullSpec }, version: "test")
        for (_, path) in CommandTree.all(ShopY.commands.map { $0.fullSpec }) {
            XCTAssertTrue(real.contains(".SS " + ManPage.text("shopy " + path)), path)
        }
    }

    // MARK: Numbers

    func testWhitespaceInNumbersIsRefusedEverywhere() async {
        for (arguments, message) in [
            (["search", "x", "--size", " 5"], "shopy: invalid --size ' 5': expected a whole number from 1 to 100"),
            (["search", "x", "--page", "2 "], "shopy: invalid --page '2 ': expected a whole number from 1"),
            (["search", "x", "--timeout", "2 "], "shopy: invalid --timeout '2 ': expected seconds as a decimal number more than 0 and at most 3600"),
            (["status", "--timeout", " 1"], "shopy: invalid --timeout ' 1': expected seconds as a decimal number more than 0 and at most 60"),
            (["popular", "--size", "\t3"], "shopy: invalid --size ' 3': expected a whole number from 1 to 100"),
        ] {
            let run = await Shell.run(arguments)
            XCTAssertEqual(run.code, 64, "\(arguments)")
            XCTAssertEqual(run.stderr.split(separator: "\n").first.map(String.init), message, "\(arguments)")
        }
        let fine = await Shell.run(["search", "방충망", "--size", "5", "--timeout", "2.5", "--format", "tsv"])
        XCTAssertEqual(fine.code, 0, fine.stderr)
    }
}


final class HelpTopicsTests: XCTestCase {
    func testEnvironmentAndFilesTopicsComeFromTheTable() async {
        let environment = await Shell.run(["help", "environment"], environment: ["COLUMNS": "100"])
        XCTAssertEqual(environment.code, 0)
        for row in EnvironmentTable.variables { XCTAssertTrue(environment.stdout.contains(row.label), row.label) }
        let files = await Shell.run(["help", "files"], environment: ["COLUMNS": "100"])
        XCTAssertEqual(files.code, 0)
        for row in EnvironmentTable.files { XCTAssertTrue(files.stdout.contains(row.label), row.label) }
        let root = await Shell.run(["help"])
        XCTAssertTrue(root.stdout.contains("help environment") && root.stdout.contains("help files"), root.stdout)
        let completer = Completer(commands: ShopY.commands.map { $0.fullSpec }, store: nil)
        guard case .candidates(let found) = completer.complete(["help", "e"]) else { return XCTFail() }
        XCTAssertEqual(found.map(\.value), ["environment"])
        let unknown = await Shell.run(["help", "environmnt"])
        XCTAssertEqual(unknown.code, 64)
        XCTAssertEqual(unknown.stderr, "shopy: no help for unknown command 'environmnt'\nhint: did you mean 'environment'?\n")
    }
}
