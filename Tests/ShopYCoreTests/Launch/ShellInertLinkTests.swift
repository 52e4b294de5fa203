// A link put in place of `%s` in a $BROWSER entry has every character a shell would act on
// percent-encoded (`$`, `(`, `)`, backquote, quotes, `;`, `|`, `<`, `>`, `\`, `!`, `{`, `}`), so
// that an entry that runs its own shell (`sh -c 'firefox %s'`) cannot be made to run anything
// else. The link as one argv element (no `%s`) and the platform openers get it unchanged.

import Foundation
import XCTest
@testable import ShopYCore

final class ShellInertLinkTests: XCTestCase {
    let hostile = "https://a.example/p?q=$(touch%20pwned)&r=1;id;'x'!(y){z}"

    func testPlaceholderGetsAnInertLinkAndTheLastArgumentTheLinkItself() {
        let entries = BrowserVariable.entries("sh -c 'firefox %s':w3m")
        let placed = entries[0].argv(for: hostile)
        XCTAssertEqual(placed, ["sh", "-c", "firefox https://a.example/p?q=%24%28touch%20pwned%29&r=1%3Bid%3B%27x%27%21%28y%29%7Bz%7D"])
        XCTAssertEqual(entries[1].argv(for: hostile), ["w3m", hostile], "one argv element: nothing to guard against")
        for character in "$()`'\";|<>\\!{}" {
            XCTAssertFalse(SafeLink.shellInert("https://a.example/\(character)").dropFirst(8).contains(character), "\(character)")
        }
        XCTAssertEqual(SafeLink.shellInert("https://a.example/a-b_c.d~e/f?g=h&i=j#k%20"), "https://a.example/a-b_c.d~e/f?g=h&i=j#k%20",
                       "what a shell leaves alone in a word, and what structures a URL, stays")
    }

    /// The real thing: /bin/sh runs the entry; the hostile link runs nothing and reaches the
    /// "browser" (printf) as it was meant, percent-encoded.
    func testAShellInBrowserRunsNothingFromTheLink() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/sh") else { throw XCTSkip("needs /bin/sh") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shopy-inert-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let out = directory + "/out"
        // The link in single quotes, in double quotes, and bare (where only links without `&`
        // can be meant to work: a bare `&` ends the command in any shell).
        for (template, ampersand) in [("sh -c \"cd \(directory); printf %%s '%s' > \(out)\"", true),
                                      ("sh -c 'cd \(directory); printf %%s \"%s\" > \(out)'", true),
                                      ("sh -c 'cd \(directory); printf %%s %s > \(out)'", false)] {
            try? FileManager.default.removeItem(atPath: out)
            let opener = LinkOpener(environment: ["BROWSER": template, "PATH": "/usr/bin:/bin"], launcher: SystemLauncher(), diagnostics: DiscardedDiagnostics())
            var accepted = 0
            for link in [hostile, "https://a.example/?x=$(touch${IFS}pwned)", "https://a.example/?x=';touch${IFS}pwned;'",
                         "https://a.example/?x=\";touch${IFS}pwned;\"", "https://a.example/?x=`touch${IFS}pwned`", "https://a.example/?x=;touch${IFS}pwned"] {
                guard let checked = SafeLink.check(link), ampersand || !link.contains("&") else { continue }
                accepted += 1
                XCTAssertEqual(opener.open(checked), "$BROWSER (sh)", template)
                XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/pwned"), "\(template) ran a command from \(link)")
                let printed = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
                XCTAssertEqual(printed, SafeLink.shellInert(checked), template)
            }
            XCTAssertGreaterThanOrEqual(accepted, 3, "links with shell syntax pass SafeLink.check")
        }
    }
}
