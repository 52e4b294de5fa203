// End-to-end tests for `shopy completions` (Sources/ShopYCLI/Completion): each script passes
// its shell's syntax check, and each shell completes for real, calling the built shopy back:
// bash through the completion function, zsh through its line editor in a zpty, fish through
// `complete -C`. A missing shell skips its test with the reason.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class CompletionTests: XCTestCase {
    var home: TestHome!
    var scripts: String!
    /// The productId liked in setUp.
    var likedID: String!

    override func setUpWithError() throws {
        home = TestHome()
        scripts = home.path + "/scripts"
        try FileManager.default.createDirectory(atPath: scripts, withIntermediateDirectories: true)
        // A listing and a like for the dynamic values.
        XCTAssertEqual(try runShopy(["search", "방충망", "--size", "3", "-q"], home: home.path).status, 0)
        XCTAssertEqual(try runShopy(["like", "2"], home: home.path).status, 0)
        // Read before the last search: 'shopy likes' is a listing of its own.
        let likes = try runShopy(["likes", "--format", "tsv"], home: home.path)
        likedID = try XCTUnwrap(likes.stdout.split(separator: "\t").dropFirst().first.map(String.init))
        XCTAssertEqual(try runShopy(["search", "세제 세탁", "--size", "2", "-q"], home: home.path).status, 0)
    }

    override func tearDown() { home.remove() }

    var environment: [String: String] { CompletionShells.environment(home: home.path) }

    func testBash() throws {
        let bash = try CompletionShells.path("bash")
        let path = try CompletionShells.script("bash", home: home.path, into: scripts)
        XCTAssertEqual(try runProcess(bash, ["-n", path]).status, 0, "bash -n")
        let driver = """
            cd "$HOME"; source "$1"; shift
            for line in "$@"; do
              COMP_LINE=$line; COMP_POINT=${#line}
              read -r -a COMP_WORDS <<< "$line"; [[ $line == *" " ]] && COMP_WORDS+=("")
              COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
              _shopy
              printf '%s|' "${COMPREPLY[@]}"; echo
            done
            """
        let id: String = likedID
        let lines = ["shopy con", "shopy search --sort ", "shopy search --sort=d", "shopy like ", "shopy config set ",
                     "shopy config set color n", "shopy unlike --id ", "shopy search 세제", "shopy popular --section 세", "shopy completions f"]
        let result = try runProcess(bash, ["-c", driver, "driver", path] + lines, environment: environment)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdoutLines, [
            "config|", "sim|date|asc|dsc|", "date|dsc|", "1|2|", "source|size|sort|format|color|quiet|rate|timeout|images|coupang-per-hour|catalog.record|", "never|", "\(id)|",
            "세제\\ 세탁|", "세제|세제\\ 세탁|", "fish|",
        ])
        // Files for likes export.
        let files = try runProcess(bash, ["-c", driver, "driver", path, "shopy likes export scr"], environment: environment)
        XCTAssertEqual(files.stdoutLines, ["scripts|"])
    }

    func testZshInItsLineEditor() throws {
        let zsh = try CompletionShells.path("zsh")
        let path = try CompletionShells.script("zsh", home: home.path, into: scripts)
        XCTAssertEqual(try runProcess(zsh, ["-n", path]).status, 0, "zsh -n")
        guard try runProcess(zsh, ["-fc", "zmodload zsh/zpty"]).status == 0 else { throw XCTSkip("zsh has no zpty module") }
        let id: String = likedID
        for (typed, expected) in [("shopy con", "shopy config "), ("shopy config set color al", "shopy config set color always "),
                                  ("shopy unlike --id \(id.prefix(6))", "shopy unlike --id \(id) "), ("shopy search --si", "shopy search --size "), ("shopy search --so", "shopy search --so"),
                                  ("shopy help lik", "shopy help like")] {
            let out = home.path + "/buffer-\(UUID().uuidString.prefix(6))"
            // An interactive zsh in a pseudo-terminal: compinit, the script, Tab, then a widget
            // that writes the edited line to a file.
            let driver = """
                zmodload zsh/zpty
                zpty z zsh -f -i
                zpty -w z 'PS1=""; autoload -Uz compinit; compinit -u -D; source \(path); dump() { print -r -- "$BUFFER" >| \(out) }; zle -N dump; bindkey "^X" dump; bindkey "^I" complete-word; echo READY'
                zpty -r -m z line '*READY*'
                zpty -w -n z '\(typed)'$'\\t'

                zpty -w -n z $'\\C-x'
                for i in {1..100}; do [[ -s \(out) ]] && break; sleep 0.1; done
                zpty -d z
                """
            let result = try runProcess(zsh, ["-fc", driver], environment: environment, timeout: 30)
            XCTAssertEqual(result.status, 0, result.stderr)
            let buffer = (try? String(contentsOfFile: out, encoding: .utf8)) ?? "(nothing)"
            // "help like" is ambiguous with likes: the common prefix stays.
            XCTAssertEqual(buffer.trimmingCharacters(in: .newlines), expected.trimmingCharacters(in: .newlines), "zsh completed '\(typed)'")
        }
    }

    func testFish() throws {
        let fish = try CompletionShells.path("fish")
        let path = try CompletionShells.script("fish", home: home.path, into: scripts)
        XCTAssertEqual(try runProcess(fish, ["-n", path]).status, 0, "fish -n")
        func complete(_ line: String) throws -> [String] {
            let result = try runProcess(fish, ["--no-config", "-c", "source \(path); complete -C '\(line)'"], environment: environment)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdoutLines
        }
        XCTAssertEqual(try complete("shopy con"), ["config\tShow or change the defaults of options (source, size, sort, format, color, quiet, rate, timeout)."])
        let rows = try complete("shopy open ")
        XCTAssertEqual(rows.map { $0.split(separator: "\t").first.map(String.init) ?? "" }, ["1", "2"], "rows of the last listing: \(rows)")
        XCTAssertTrue(rows.allSatisfy { $0.contains("\t") && $0.count > 4 }, "with titles: \(rows)")
        XCTAssertEqual(try complete("shopy likes --format j"), ["json\tformat", "jsonl\tformat"])
        XCTAssertEqual(try complete("shopy config get ti"), ["timeout\t" + (ConfigKey.all.first { $0.name == "timeout" }?.help ?? "")])
        let id: String = likedID
        XCTAssertEqual(try complete("shopy rank 방충망 --product ").first?.hasPrefix(id + "\t"), true)
    }
}
