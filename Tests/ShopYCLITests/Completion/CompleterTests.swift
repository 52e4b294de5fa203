// Tests for Sources/ShopYCLI/Completion/Completer.swift in process: what `shopy __complete`
// answers from the declarations and the store. The shells themselves: EndToEndTests/CompletionTests.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class CompleterTests: XCTestCase {
    func completer(_ store: SettingsStore? = nil) -> Completer {
        Completer(commands: ShopY.commands.map { $0.fullSpec }, store: store)
    }

    func values(_ words: [String], _ store: SettingsStore? = nil) -> [String] {
        guard case .candidates(let candidates) = completer(store).complete(words) else { return ["<files>"] }
        return candidates.map(\.value)
    }

    func testCommandsOptionsAndChoicesComeFromTheDeclarations() {
        XCTAssertEqual(values([""]), ShopY.commands.map { $0.spec.name } + ["help"])
        XCTAssertEqual(values(["l"]), ["like", "likes"])
        XCTAssertEqual(values(["search", "--s"]), ["--sort", "--size", "--source"])
        XCTAssertEqual(values(["search", "--sort", "1", "--s"]), ["--size", "--source"], "an option given once is not offered again")
        XCTAssertEqual(values(["search", "--format="]), OutputFormat.allCases.map { "--format=" + $0.rawValue })
        XCTAssertEqual(values(["search", "--color", ""]), ["auto", "always", "never"], "common options complete too")
        XCTAssertEqual(values(["likes", ""]), ["export", "import", "clear", "refresh", "alert", "alerts"])
        XCTAssertEqual(values(["likes", "export", ""]), ["<files>"])
        XCTAssertEqual(values(["config", "set", "format", "js"]), ["json", "jsonl"])
        XCTAssertEqual(values(["help", "config", ""]), ["get", "set", "unset", "list"])
        XCTAssertEqual(values(["nosuch", ""]), [])
        XCTAssertEqual(values(["help", "--m"]), ["--man"])
        XCTAssertFalse(values(["_"]).contains("__complete"), "the callback stays hidden")
    }

    func testStoreValuesAndHostileOnesLeftOut() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("completer-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = SettingsStore(directory: dir)
        try store.update([.state, .preferences]) { settings in
            settings.history = [HistoryEntry(query: "evil\u{1B}[2J", at: "2026-12-01T00:00:00Z"), HistoryEntry(query: "방충망", at: "2026-12-01T00:00:00Z")]
            settings.popularSections = ["가방"]
            settings.lastListing = LastListing(command: "search x", savedAt: "", rows: [
                LastListing.Row(row: "1", product: Product(productId: "123456789", title: "title\u{1B}]0;pwn\u{07} here"))])
        }
        XCTAssertEqual(values(["search", ""], store), ["방충망"], "a value with control characters is never offered")
        guard case .candidates(let searched) = completer(store).complete(["search", ""]) else { return XCTFail() }
        XCTAssertEqual(searched.first?.description, "searched " + LocalTime.display("2026-12-01T00:00:00Z"), "local time for people, as history shows it")
        guard case .candidates(let rows) = completer(store).complete(["like", ""]) else { return XCTFail() }
        XCTAssertEqual(rows.map(\.value), ["1"])
        XCTAssertEqual(values(["like", "--id", ""], store), ["123456789"], "like --id: the listing's products")
        XCTAssertEqual(values(["unlike", "--id", ""], store), [], "unlike --id: liked ids (none here)")
        XCTAssertFalse(rows[0].description.contains("\u{1B}"), "titles are sanitized: \(rows[0].description)")
        XCTAssertEqual(values(["popular", "-s", ""], store).first, "가방", "saved sections first")
        XCTAssertEqual(Completer.render(.candidates([.init(value: "a b;c", description: "d")]), shell: .bash), "a\\ b\\;c\n")
        XCTAssertEqual(Completer.render(.candidates([.init(value: "x", description: "d e")]), shell: .fish), "x\td e\n")
    }

    func testBidiAndInvisibleCharactersReachNoShell() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("completer-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = SettingsStore(directory: dir)
        try store.update([.state, .preferences]) { settings in
            settings.history = ["가방", "가\u{202E}txt.exe", "가\u{FEFF}bom", "가\u{2067}x", "가\u{200B}x"].map { HistoryEntry(query: $0, at: "2026-12-01T00:00:00Z") }
            settings.popularSections = ["가\u{202E}saved"]
            settings.lastListing = LastListing(command: "search x", savedAt: "", rows: [
                LastListing.Row(row: "1", product: Product(productId: "123456789", title: "첫째\u{202E}뒤집힌\u{FEFF}"))])
        }
        // A value is what the shell inserts: one that would need cleaning is left out, as one
        // with controls is (cleaned, it would be another query).
        XCTAssertEqual(values(["search", "가"], store), ["가방"])
        XCTAssertEqual(values(["popular", "--section", "가"], store), ["가방"])
        for shell in Completer.Shell.allCases {
            for words in [["search", "가"], ["popular", "--section", ""], ["like", ""], ["like", "--id", ""]] {
                let rendered = Completer.render(completer(store).complete(words), shell: shell)
                XCTAssertFalse(rendered.isEmpty, "\(shell) \(words)")
                XCTAssertFalse(Sanitizer.needsCleaning(rendered.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "\t", with: "")),
                               "\(shell) \(words): \(rendered.debugDescription)")
            }
        }
        guard case .candidates(let rows) = completer(store).complete(["like", ""]) else { return XCTFail() }
        XCTAssertEqual(rows.map(\.description), ["첫째뒤집힌"])
    }

    func testManyLikesCompleteByIDWithoutDecodingEveryLike() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("completer-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = SettingsStore(directory: dir)
        try store.update([.likes]) { settings in
            var likes = settings.likes
            for i in 0...Completer.likesWithTitles {
                _ = likes.add(Like(product: Product(productId: String(10_000_000 + i), title: "item \(i)"), likedAt: "2026-12-01T00:00:00Z", likedPrice: nil))
            }
            settings.likes = likes
        }
        guard case .candidates(let found) = completer(store).complete(["unlike", "--id", "1000199"]) else { return XCTFail() }
        XCTAssertEqual(found.map(\.value), ["10001990", "10001991", "10001992", "10001993", "10001994", "10001995", "10001996", "10001997", "10001998", "10001999"])
        XCTAssertEqual(Set(found.map(\.description)), ["liked"])
    }

    func testCompletionsCommand() async {
        var run = await Shell.run(["completions", "bash"])
        XCTAssertEqual(run.code, 0)
        XCTAssertTrue(run.stdout.contains("complete -F _shopy shopy"))
        run = await Shell.run(["completions", "tcsh"])
        XCTAssertEqual(run.code, 64)
        XCTAssertTrue(run.stderr.contains("bash, zsh, fish"), run.stderr)
        run = await Shell.run(["help", "completions"])
        XCTAssertTrue(run.stdout.contains("~/.config/fish/completions/shopy.fish"), "install lines in help")
        run = await Shell.run(["__complete", "fish", "--", "con"])
        XCTAssertTrue(run.stdout.hasPrefix("config\t"), run.stdout)
    }

    /// `shopy completions tcsh` said "invalid --shell 'tcsh'": there is no --shell option.
    func testUnknownShellIsNotAnOption() async {
        let run = await Shell.run(["completions", "tcsh"])
        XCTAssertEqual(run.code, 64)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(run.stderrLines.first, "shopy: unknown shell 'tcsh'; shopy has scripts for bash, zsh, fish")
        XCTAssertFalse(run.stderr.contains("--shell"), run.stderr)
        let upper = await Shell.run(["completions", "ZSH"])
        XCTAssertEqual(upper.code, 0, upper.stderr)
        XCTAssertTrue(upper.stdout.hasPrefix("#compdef shopy"))
    }
}
