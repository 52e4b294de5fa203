// What the shells show when they list completions: each shell (bash, zsh, fish) runs
// interactively in a pseudo-terminal with the script `shopy completions SHELL` prints, Tab lists
// the candidates of a word, and nothing the shell wrote to the terminal may carry a bidi
// override or an invisible format character from the store (a history query, a title of the
// last listing). The completion itself calls the built shopy. A missing shell skips its test.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
import ShopYBase

final class CompletionMenuTests: XCTestCase {
    var home: TestHome!

    /// What may not reach the terminal: RLO, LRI, ZWSP and the BOM.
    static let hidden: Set<UInt32> = [0x202E, 0x2066, 0x200B, 0xFEFF]

    override func setUpWithError() throws {
        home = TestHome()
        try SettingsStore(directory: home.path).update([.state]) { settings in
            settings.history = ["가나 clean one", "가다 clean two", "가\u{202E}txt.exe", "가\u{FEFF}bom", "가\u{2066}isolate", "가\u{200B}space"]
                .map { HistoryEntry(query: $0, at: "2026-12-01T00:00:00Z") }
            settings.lastListing = LastListing(command: "search x", savedAt: "", rows: [
                LastListing.Row(row: "1", product: Product(productId: "123456789", title: "첫째\u{202E}뒤집힌 제목")),
                LastListing.Row(row: "2", product: Product(productId: "223456789", title: "둘째\u{FEFF}\u{200B}제목")),
            ])
        }
    }

    override func tearDown() { home.remove() }

    var environment: [String: String] { CompletionShells.environment(home: home.path) }

    /// For each line: starts `argv` in a pseudo-terminal, sends `setup` (which makes the prompt
    /// `READY> ` and `shopy` a function: completion calls `command shopy`) and waits for the prompt, types the line (with its Tabs) and waits until the shell writes `shown`. Then: no hidden
    /// scalar in anything the shell wrote.
    func drive(_ argv: [String], setup: String, lines: [(typed: String, shown: String)], file: StaticString = #filePath, line: UInt = #line) throws {
        for typed in lines {
            let terminal = try PseudoTerminal(rows: 40, columns: 200)
            try terminal.spawn(argv, environment: environment)
            terminal.send(setup + "\r")
            terminal.waitFor("READY>", file: file, line: line)
            terminal.send(typed.typed)
            // What the shell wrote, not the screen: a shell's redraw of its list can outrun the
            // test's screen model.
            let deadline = Date().addingTimeInterval(15)
            while !String(decoding: terminal.output, as: UTF8.self).contains(typed.shown) && Date() < deadline { terminal.pump(milliseconds: 50) }
            XCTAssertTrue(String(decoding: terminal.output, as: UTF8.self).contains(typed.shown),
                          "\(argv[0]) never listed '\(typed.shown)' for '\(typed.typed)'; it wrote:\n\(String(decoding: terminal.output, as: UTF8.self).debugDescription)", file: file, line: line)
            // Ctrl-C closes the list (fish) or drops the line; an Enter that still runs it runs
            // the setup's `shopy`, a function that does nothing (a real search would rewrite the
            // store).
            terminal.send("\u{3}\rexit\r")
            _ = terminal.waitForExit(timeout: 5)
            let written = String(decoding: terminal.output, as: UTF8.self)
            let found = written.unicodeScalars.filter { Self.hidden.contains($0.value) }.map { String($0.value, radix: 16) }
            XCTAssertEqual(found, [], "\(argv[0]) showed hidden characters for '\(typed.typed)'; screen:\n\(terminal.screen.text)",
                           file: file, line: line)
        }
    }

    func testBashListsNoHiddenCharacters() throws {
        let bash = try CompletionShells.path("bash")
        let path = try CompletionShells.script("bash", home: home.path)
        // bash lists values only (Tab Tab), as it would insert them: the history queries.
        try drive([bash, "--norc", "--noprofile", "-i"], setup: """
            cd "$HOME"; PS1='REA''DY> '; source \(path); bind 'set bell-style none'; shopy() { :; }
            """, lines: [("shopy search 가\t\t", "clean\\ two")])
    }

    func testZshListsNoHiddenCharacters() throws {
        // The list's last line is redrawn under the prompt: the first lines are waited for.
        let zsh = try CompletionShells.path("zsh")
        let path = try CompletionShells.script("zsh", home: home.path)
        try drive([zsh, "-f", "-i"], setup: """
            cd "$HOME"; PS1='REA''DY> '; autoload -Uz compinit; compinit -u -D; source \(path); bindkey '^I' complete-word; shopy() { : }
            """, lines: [("shopy search 가\t", "clean one"), ("shopy like \t", "첫째")])
    }

    func testFishListsNoHiddenCharacters() throws {
        let fish = try CompletionShells.path("fish")
        let path = try CompletionShells.script("fish", home: home.path)
        try drive([fish, "--no-config", "-i"], setup: """
            cd $HOME; function fish_prompt; echo 'REA''DY> '; end; source \(path); function shopy; end
            """, lines: [("shopy search 가\t", "clean two"), ("shopy like \t", "둘째")])
    }
}
