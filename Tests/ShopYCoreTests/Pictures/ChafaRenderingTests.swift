import XCTest
@testable import ShopYCore

/// libchafa draws the fixture: in symbols against a golden (Debian bookworm's libchafa0), and in
/// each pixel protocol as that protocol's sequence; and the terminal database is asked.
final class ChafaRenderingTests: XCTestCase {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/picture-symbols.txt")

    func picture() throws -> DecodedPicture {
        try PictureFixtures.require(.png)
        try PictureFixtures.require(.chafa)
        return try PictureDecoder.decode(try PictureFixtures.bytes("quadrants.png"), declared: .png, source: "x", environment: [:]).get()
    }

    func choice(_ drawing: PictureProtocol, colors: SymbolColors = .truecolor) -> GraphicsChoice {
        GraphicsChoice(drawing: drawing, colors: colors, tmuxPassthrough: false, why: "test")
    }

    func testSymbolsMatchTheGolden() throws {
        let rendered = try ChafaTerminal.render(try picture(), choice: choice(.symbols), columns: 16, rows: 8, cell: .common,
                                                environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"]).get()
        XCTAssertEqual(rendered.columns, 16)
        XCTAssertEqual(rendered.rows, 6, "64 × 48 in cells twice as tall as wide: 16 × 6")
        XCTAssertEqual(rendered.symbolRows.count, 6)
        let text = String(decoding: rendered.bytes, as: UTF8.self)
        if ProcessInfo.processInfo.environment["SHOPY_UPDATE_GOLDEN"] != nil {
            try text.write(to: Self.golden, atomically: true, encoding: .utf8)
        }
        let golden = try String(contentsOf: Self.golden, encoding: .utf8)
        XCTAssertEqual(text, golden, "libchafa's symbols for the fixture (SHOPY_UPDATE_GOLDEN=1 rewrites the golden)")
        // Only SGR sequences and printable characters: nothing else reaches the terminal.
        let withoutSGR = text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertFalse(withoutSGR.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, withoutSGR)
    }

    func testPixelProtocolsEmitTheirSequence() throws {
        let picture = try picture()
        let cases: [(PictureProtocol, String)] = [(.kitty, "\u{1B}_G"), (.sixel, "\u{1B}P"), (.iterm, "\u{1B}]1337;File=")]
        for (drawing, start) in cases {
            let rendered = try ChafaTerminal.render(picture, choice: choice(drawing), columns: 20, rows: 10, cell: .common, environment: ["TERM": "xterm-256color"]).get()
            let text = String(decoding: rendered.bytes, as: UTF8.self)
            XCTAssertTrue(text.contains(start), "\(drawing): \(text.prefix(40).debugDescription)")
        }
    }

    func testTmuxPassthroughDoublesEveryEscape() {
        let wrapped = TerminalGraphics.tmuxWrapped(Array("\u{1B}_Gabc\u{1B}\\".utf8))
        XCTAssertEqual(String(decoding: wrapped, as: UTF8.self), "\u{1B}Ptmux;\u{1B}\u{1B}_Gabc\u{1B}\u{1B}\\\u{1B}\\")
    }

    func testTheTerminalDatabaseIsAsked() throws {
        try PictureFixtures.require(.chafa)
        XCTAssertTrue(ChafaTerminal.probe(environment: ["TERM": "xterm-kitty"])?.kitty ?? false)
        XCTAssertTrue(ChafaTerminal.probe(environment: ["TERM": "xterm-256color", "LC_TERMINAL": "iTerm2"])?.iterm ?? false)
        XCTAssertTrue(ChafaTerminal.probe(environment: ["TERM": "foot"])?.sixel ?? false)
        let plain = ChafaTerminal.probe(environment: ["TERM": "xterm-256color"])
        XCTAssertEqual(plain?.kitty, false)
        XCTAssertEqual(plain?.colors, .truecolor)
        XCTAssertEqual(ChafaTerminal.probe(environment: ["TERM": "linux"])?.colors, .indexed16)
    }

    func testFitKeepsTheShape() {
        XCTAssertEqual(ChafaTerminal.fit(width: 1000, height: 1000, columns: 40, rows: 20, cell: CellSize(width: 8, height: 16)).columns, 40)
        XCTAssertEqual(ChafaTerminal.fit(width: 1000, height: 1000, columns: 40, rows: 20, cell: CellSize(width: 8, height: 16)).rows, 20)
        let tall = ChafaTerminal.fit(width: 100, height: 1000, columns: 40, rows: 20, cell: CellSize(width: 8, height: 16))
        XCTAssertEqual(tall.rows, 20)
        XCTAssertEqual(tall.columns, 4)
        XCTAssertEqual(ChafaTerminal.fit(width: 1, height: 100_000, columns: 40, rows: 20, cell: .common).columns, 1)
    }
}
