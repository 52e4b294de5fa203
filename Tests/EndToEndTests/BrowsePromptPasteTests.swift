import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// Long pastes into browse's `/` prompt: the screen keeps up with every key typed after them (the
/// prompt line used to be cut one character at a time from the front at each redraw: seconds of
/// CPU a key for 48 KB, minutes for 192 KB), and the end of the text stays in view.
final class BrowsePromptPasteTests: XCTestCase {
    func testTypingAfterLongPastesKeepsUp() throws {
        let home = NSTemporaryDirectory() + "shopy-browse-paste-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let session = try BrowseSession(home: home)
        let pty = session.pty
        pty.waitFor("Popular rankings")
        pty.send("/")
        XCTAssertTrue(pty.wait { session.line($0, 1) == "/" }, pty.screen.text)
        XCTAssertTrue(pty.wait { $0.cursorVisible }, "the cursor shows in the prompt")
        // Four pastes of 48 KB of Hangul and spaces each, in bracketed-paste markers, written in
        // pieces while the screen is read (a pseudo-terminal holds only a few KB).
        let one = "\u{1B}[200~" + String(repeating: "방충망 ", count: 4_800) + "\u{1B}[201~"
        let paste = Array(String(repeating: one, count: 4).utf8)
        var sent = 0
        while sent < paste.count {
            let end = min(sent + 1_024, paste.count)
            pty.send(Array(paste[sent..<end]))
            pty.pump(milliseconds: 0)
            sent = end
        }
        XCTAssertTrue(pty.wait { session.line($0, 1).hasSuffix("방충망") }, "the end of the paste is in view:\n\(pty.screen.text)")
        var typed = ""
        for key in ["x", "y", "z"] {
            pty.send(key)
            typed += key
            XCTAssertTrue(pty.wait { session.line($0, 1).hasSuffix("방충망 " + typed) }, "'\(typed)' shows:\n\(pty.screen.text)")
        }
        let prompt = session.line(pty.screen, 1)
        XCTAssertTrue(prompt.hasPrefix("/ "), prompt)
        XCTAssertLessThanOrEqual(DisplayWidth.of(prompt), 80)
        pty.send("\u{1B}")
        pty.send([0x03])
        XCTAssertEqual(pty.waitForExit(), 0)
        session.assertRestored()
    }
}
