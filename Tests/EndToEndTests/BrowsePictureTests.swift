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
@testable import ShopYCatalog

/// Browse's Detail screen with the picture, through a pseudo-terminal: drawn in the region the
/// window's shape gives it (right of a wide window, on top of a tall one), redrawn on resize,
/// gone when the screen is left, and the terminal restored. The pictures come from the cache
/// (the offline catalog's image URLs, filled here with the project's fixture): no network.
final class BrowsePictureTests: XCTestCase {
    var base = ""

    override func setUpWithError() throws {
        for library in [PictureLibrary.chafa, .png] {
            if let failure = library.load(environment: ProcessInfo.processInfo.environment) {
                throw XCTSkip("\(failure.reason); \(failure.hint ?? "")")
            }
        }
        base = NSTemporaryDirectory() + "shopy-browse-picture-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: base + "/home", withIntermediateDirectories: true)
        let fixture = [UInt8](try Data(contentsOf: fixturesDirectory.appendingPathComponent("pictures/quadrants.png")))
        let cache = PictureCache(directory: base + "/cache/shopy/images")
        for item in Catalog.embedded.search(SearchRequest(query: "방충망", display: 100)).items {
            if let image = item.image { try cache.write(image, bytes: fixture, format: .png) }
        }
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: base)
    }

    func start(rows: Int, columns: Int, environment: [String: String] = [:]) throws -> (PseudoTerminal, termios) {
        let pty = try PseudoTerminal(rows: rows, columns: columns)
        let before = pty.modes()
        var env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "COLORTERM": "truecolor",
                   "SHOPY_HOME": base + "/home", "XDG_CACHE_HOME": base + "/cache", "HOME": base + "/home"]
        env.merge(environment) { $1 }
        try pty.spawn([Binary.path("shopy"), "browse", "--source", "catalog", "--images", "symbols", "방충망"], environment: env)
        return (pty, before)
    }

    /// How many of chafa's symbols (block elements, box drawing) the screen shows in `columns` of
    /// `rows` (the model keeps no colours: a picture's solid areas are coloured spaces, not counted).
    func blocks(_ screen: TerminalScreen, rows: Range<Int>, columns: Range<Int>) -> Int {
        var count = 0
        for row in rows where row < screen.rows {
            for column in columns where column < screen.columns {
                if let scalar = screen.cells[row][column].unicodeScalars.first, (0x2500...0x259F).contains(scalar.value) { count += 1 }
            }
        }
        return count
    }

    func testTheRightPartOfAWideWindowThenTheTopOfATallOne() throws {
        let (pty, before) = try start(rows: 24, columns: 120)
        pty.waitFor("· sort sim · catalog")
        pty.send("\r")
        pty.waitFor("Detail · Esc or q goes back")
        // The picture fills the right part (from column 72 on); the card keeps the left.
        XCTAssertTrue(pty.wait { self.blocks($0, rows: 2..<23, columns: 72..<120) > 20 }, pty.screen.text)
        XCTAssertEqual(blocks(pty.screen, rows: 0..<24, columns: 0..<70), 0, "the card's side has no picture")
        XCTAssertTrue(pty.screen.text.contains("productId "), pty.screen.text)
        // j scrolls the card: the picture stays.
        pty.send("j")
        Thread.sleep(forTimeInterval: 0.3)
        _ = pty.pump(milliseconds: 100)
        XCTAssertGreaterThan(blocks(pty.screen, rows: 2..<23, columns: 72..<120), 20, "kept while the card scrolls")
        // A tall window: the picture moves to the top.
        pty.resize(rows: 40, columns: 80)
        XCTAssertTrue(pty.wait { self.blocks($0, rows: 2..<19, columns: 0..<80) > 20 && self.blocks($0, rows: 20..<40, columns: 0..<80) == 0 }, pty.screen.text)
        // Leaving Detail clears it.
        pty.send("\u{1B}")
        pty.waitFor("Search: 방충망")
        XCTAssertTrue(pty.wait { self.blocks($0, rows: 0..<40, columns: 0..<80) == 0 }, pty.screen.text)
        pty.send("q")
        XCTAssertEqual(pty.waitForExit(), 0)
        XCTAssertTrue(PseudoTerminal.same(before, pty.modes()), "termios restored")
        XCTAssertFalse(pty.screen.alternateScreen)
        XCTAssertTrue(pty.screen.cursorVisible)
    }

    func testWithoutLibchafaTheScreenSaysWhichPackage() throws {
        let (pty, before) = try start(rows: 24, columns: 120, environment: ["SHOPY_LIBCHAFA": base + "/missing/libchafa.so.0"])
        pty.waitFor("· sort sim · catalog")
        pty.send("\r")
        pty.waitFor("Detail · Esc or q goes back")
        pty.waitFor("hint: pictures need libchafa")
        XCTAssertTrue(pty.screen.text.contains("libchafa0"), pty.screen.text)
        XCTAssertTrue(pty.screen.text.contains("link      https://"), pty.screen.text)
        pty.send([0x03])
        XCTAssertEqual(pty.waitForExit(), 0)
        XCTAssertTrue(PseudoTerminal.same(before, pty.modes()))
    }

    func testShowWithoutLibchafaPrintsTheLinkAndOneHint() throws {
        let home = base + "/home"
        _ = try runShopy(["search", "방충망", "--size", "2", "--source", "catalog"], home: home)
        let pty = try PseudoTerminal(rows: 30, columns: 100)
        try pty.spawn([Binary.path("shopy"), "show", "1"],
                      environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "SHOPY_HOME": home,
                                    "XDG_CACHE_HOME": base + "/cache", "SHOPY_LIBCHAFA": base + "/missing/libchafa.so.0"])
        XCTAssertEqual(pty.waitForExit(), 0, pty.screen.text)
        let text = pty.screen.text
        XCTAssertTrue(text.contains("link      https://"), text)
        let hints = pty.screen.lines.filter { $0.hasPrefix("hint: ") }
        XCTAssertEqual(hints, ["hint: pictures need libchafa: install the libchafa0 package (e.g. sudo apt-get install libchafa0)"], text)
        XCTAssertFalse(text.contains("shopy: "), "no error: \(text)")
    }
}
