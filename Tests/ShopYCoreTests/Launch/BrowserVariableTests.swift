// Tests for Sources/ShopYCore/Launch/BrowserVariable.swift and CommandWords.swift: $BROWSER
// by its convention (colon-separated commands, words without a shell, %s and %%).

import XCTest
@testable import ShopYCore

final class BrowserVariableTests: XCTestCase {
    let link = "https://example.com/a?b=1&c=%EB%B0%A9"

    func argv(_ value: String) -> [[String]] { BrowserVariable.entries(value).map { $0.argv(for: link) } }

    func testEntriesAreColonSeparatedAndTheLinkGoesLastWithoutPlaceholder() {
        XCTAssertEqual(argv("firefox:w3m"), [["firefox", link], ["w3m", link]])
        XCTAssertEqual(argv("::w3m -o x=1::"), [["w3m", "-o", "x=1", link]], "empty entries are left out")
        XCTAssertEqual(argv(""), [])
    }

    func testPlaceholderAndLiteralPercent() {
        XCTAssertEqual(argv("chromium --app=%s"), [["chromium", "--app=" + link]])
        XCTAssertEqual(argv("echo 100%% %s"), [["echo", "100%", link]], "%% is a literal percent; the link's own % stay")
        XCTAssertEqual(argv("echo %d"), [["echo", "%d", link]], "other % sequences stay as they are")
    }

    func testQuotingAndBackslashWithoutAShell() {
        XCTAssertEqual(argv("'/opt/My Browser/run' --new"), [["/opt/My Browser/run", "--new", link]])
        XCTAssertEqual(argv("\"a:b\" %s"), [["a:b", link]], "a quoted colon does not split the list")
        XCTAssertEqual(argv("my\\ browser"), [["my browser", link]])
        XCTAssertEqual(argv("sh -c 'echo $1; rm -rf ~' %s"), [["sh", "-c", "echo $1; rm -rf ~", link]], "nothing is expanded: the link is one argument")
        XCTAssertEqual(argv("'unclosed:w3m"), [], "a broken entry is left out (the colon is inside its quote)")
        XCTAssertEqual(argv("w3m:'unclosed"), [["w3m", link]])
    }

    func testCommandWordsForExec() {
        XCTAssertEqual(CommandWords.commands("mail -s 'price drop' me@x"), [["mail", "-s", "price drop", "me@x"]])
        XCTAssertEqual(CommandWords.commands("a \"b\\\"c\" d\\ e"), [["a", "b\"c", "d e"]])
        XCTAssertEqual(CommandWords.commands("'x"), [nil])
        XCTAssertEqual(CommandWords.commands("  "), [[]])
    }
}
