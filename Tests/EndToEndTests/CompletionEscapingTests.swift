// Completions as the shells insert them: each shell (bash, zsh, fish) runs interactively in a
// pseudo-terminal with the script `shopy completions SHELL` prints; a history query is typed
// in part, Tab completes it, Enter runs the line. `shopy` is then a shell function that writes
// how many words it got and the query word, so a candidate that the shell would split, expand
// or run (a `;` after a Prepend scalar or before a combining mark is one Character to Swift and
// still a `;` to bash) shows, and so does a file its payload creates. The completion itself
// calls the built shopy (`command shopy __complete`). A missing shell skips its test.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class CompletionEscapingTests: XCTestCase {
    var home: TestHome!

    /// Every ASCII punctuation character and the space, each after a Prepend scalar (U+0600)
    /// and before a combining mark (U+0301), then bare; a unique prefix each.
    static let punctuation = Array(" !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
    static var candidates: [(typed: String, query: String)] {
        var out = punctuation.enumerated().map { i, p -> (String, String) in
            let typed = "q" + String(format: "%02d", i)
            return (typed, typed + "\u{0600}\(p)\u{0301}\(p)z")
        }
        out.append(("xpay", "xpay\u{0600};eval \u{0301};touch pwned && id > out"))
        out.append(("ypay", "ypay\u{0600}$(touch pwned)\u{0301}`touch pwned2`\u{0600}'\u{0301}\"!!"))
        return out
    }

    override func setUpWithError() throws {
        home = TestHome()
        try SettingsStore(directory: home.path).update([.state]) { settings in
            settings.history = Self.candidates.map { HistoryEntry(query: $0.query, at: "2026-12-01T00:00:00Z") }
        }
    }

    override func tearDown() { home.remove() }

    var environment: [String: String] { CompletionShells.environment(home: home.path) }

    var results: String { home.path + "/results" }

    func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Starts `argv` in a pseudo-terminal, sends `setup` and waits for READY; then for each
    /// candidate types its prefix, Tab, Enter, and waits for the function's line.
    func drive(_ argv: [String], setup: String) throws {
        let terminal = try PseudoTerminal(rows: 40, columns: 200)
        try terminal.spawn(argv, environment: environment)
        terminal.send(setup + "\r")
        terminal.waitFor("READY")
        for (n, candidate) in Self.candidates.enumerated() {
            // The shell reads the Enter after the Tab's completion has run (typeahead).
            terminal.send("shopy search \(candidate.typed)\t\r")
            let deadline = Date().addingTimeInterval(10)
            while lines(results).count < n + 1 && Date() < deadline { terminal.pump(milliseconds: 20) }
            guard lines(results).count == n + 1 else {
                return XCTFail("\(argv[0]): no line for \(candidate.typed); screen:\n\(terminal.screen.text)")
            }
        }
        terminal.send("exit\r")
        _ = terminal.waitForExit(timeout: 5)
    }

    func check(_ shellName: String, file: StaticString = #filePath, line: UInt = #line) {
        let got = lines(results)
        for (i, candidate) in Self.candidates.enumerated() {
            let expected = "2:" + candidate.query
            let actual = i < got.count ? got[i] : "(nothing)"
            XCTAssertEqual(actual, expected, "\(shellName) inserted \(candidate.typed) as something else (words:query)", file: file, line: line)
        }
        for payload in ["pwned", "pwned2", "out"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: home.path + "/" + payload), "\(shellName) ran a command from a candidate", file: file, line: line)
        }
    }

    func testBash() throws {
        let bash = try CompletionShells.path("bash")
        let path = try CompletionShells.script("bash", home: home.path)
        try drive([bash, "--norc", "--noprofile", "-i"], setup: """
            cd "$HOME"; PS1='$ '; source \(path); bind 'set bell-style none'; \
            shopy() { printf '%s\\n' "$#:$2" >> \(results); }; echo READ""Y
            """)
        check("bash")
    }

    func testZsh() throws {
        let zsh = try CompletionShells.path("zsh")
        let path = try CompletionShells.script("zsh", home: home.path)
        try drive([zsh, "-f", "-i"], setup: """
            cd "$HOME"; PS1='%% '; autoload -Uz compinit; compinit -u -D; source \(path); bindkey '^I' complete-word; \
            shopy() { print -r -- "$#:$2" >> \(results) }; echo READ""Y
            """)
        check("zsh")
    }

    func testFish() throws {
        let fish = try CompletionShells.path("fish")
        let path = try CompletionShells.script("fish", home: home.path)
        try drive([fish, "--no-config", "-i"], setup: """
            cd $HOME; function fish_prompt; echo '> '; end; source \(path); \
            function shopy; printf '%s:%s\\n' (count $argv) "$argv[2]" >> \(results); end; echo READ""Y
            """)
        check("fish")
    }

    /// In a locale whose multibyte characters can end in an ASCII byte (Shift JIS, Big5, GBK),
    /// bash would read a backslash or quote inside another character: bash gets only the
    /// candidates that are ASCII there.
    func testBashInALocaleWhoseCharactersHideASCIIBytesGetsASCIICandidatesOnly() throws {
        for locale in ["ja_JP.SJIS", "zh_TW.Big5", "zh_CN.GBK", "zh_CN.GB18030", "zh_TW", "zh_HK@stroke"] {
            let result = try runShopy(["__complete", "bash", "--", "search", ""], environment: ["LC_ALL": locale], home: home.path)
            XCTAssertEqual(result.status, 0)
            XCTAssertEqual(result.stdoutLines, [], "\(locale): \(result.stdout)")
        }
        for locale in ["C.UTF-8", "ko_KR.UTF-8", "ko_KR.eucKR", "C"] {
            let result = try runShopy(["__complete", "bash", "--", "search", "q0"], environment: ["LC_ALL": locale], home: home.path)
            XCTAssertEqual(result.stdoutLines.count, 10, "\(locale): \(result.stdout)")
        }
    }
}
