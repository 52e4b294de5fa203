import XCTest
@testable import ShopYCore
@testable import ShopYBase

/// Which drawing a terminal gets, from `--images`, the environment and chafa's database.
final class PictureProtocolTests: XCTestCase {
    func choose(_ environment: [String: String], _ capabilities: TerminalCapabilities? = TerminalCapabilities(colors: .truecolor),
                color: Bool = true, mode: ImagesMode = .auto) -> GraphicsChoice? {
        try? TerminalGraphics.choose(mode, environment: environment, capabilities: capabilities, color: color).get()
    }

    func testTheDatabaseFirstKittyThenITermThenSixel() {
        XCTAssertEqual(choose(["TERM": "xterm-kitty"], TerminalCapabilities(kitty: true, sixel: true))?.drawing, .kitty)
        XCTAssertEqual(choose(["TERM": "xterm-256color"], TerminalCapabilities(iterm: true, sixel: true))?.drawing, .iterm)
        XCTAssertEqual(choose(["TERM": "foot"], TerminalCapabilities(sixel: true))?.drawing, .sixel)
        XCTAssertEqual(choose(["TERM": "xterm-256color"])?.drawing, .symbols)
    }

    func testTheEnvironmentForTerminalsAnOlderDatabaseDoesNotKnow() {
        XCTAssertEqual(choose(["TERM": "xterm-ghostty"])?.drawing, .kitty)
        XCTAssertEqual(choose(["TERM": "xterm-256color", "KITTY_WINDOW_ID": "1"])?.drawing, .kitty)
        XCTAssertEqual(choose(["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"])?.drawing, .iterm)
        XCTAssertEqual(choose(["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"])?.drawing, .iterm)
        XCTAssertEqual(choose(["TERM": "xterm-256color", "KONSOLE_VERSION": "230800"])?.drawing, .sixel)
        XCTAssertEqual(choose(["TERM": "xterm-256color", "KONSOLE_VERSION": "210400"])?.drawing, .symbols)
        XCTAssertEqual(choose(["TERM": "mlterm"])?.drawing, .sixel)
    }

    func testMultiplexersDrawSymbolsUnlessAProtocolIsNamed() {
        let tmux = ["TERM": "screen-256color", "TMUX": "/tmp/tmux-0/default,1,0", "KITTY_WINDOW_ID": "3"]
        XCTAssertEqual(choose(tmux, TerminalCapabilities(kitty: true))?.drawing, .symbols)
        XCTAssertEqual(choose(["TERM": "screen", "STY": "1.pts"], TerminalCapabilities(sixel: true))?.drawing, .symbols)
        let named = choose(tmux, mode: .kitty)
        XCTAssertEqual(named?.drawing, .kitty)
        XCTAssertEqual(named?.tmuxPassthrough, true, "a named protocol goes through tmux's passthrough")
        XCTAssertEqual(choose(["TERM": "foot"], mode: .sixel)?.tmuxPassthrough, false)
    }

    func testNoPictureWhereNoneCanShow() {
        XCTAssertNil(choose(["TERM": "dumb"]))
        XCTAssertNil(choose([:]))
        XCTAssertNil(choose(["TERM": "xterm-256color"], color: false), "NO_COLOR / --color never: auto draws none")
        XCTAssertEqual(choose(["TERM": "dumb"], mode: .symbols)?.drawing, .symbols, "a named protocol is drawn anyway")
        XCTAssertNil(choose(["TERM": "xterm-kitty"], TerminalCapabilities(kitty: true), mode: .off))
    }

    func testSymbolColoursFollowTheDatabase() {
        XCTAssertEqual(choose(["TERM": "linux"], TerminalCapabilities(colors: .indexed16))?.colors, .indexed16)
        XCTAssertEqual(choose(["TERM": "xterm-256color"], TerminalCapabilities(colors: .indexed240))?.colors, .indexed240)
    }
}

/// The cache: bounded, least recently used first out, private files, only its own URL.
final class PictureCacheTests: XCTestCase {
    var directory = ""

    override func setUp() {
        directory = NSTemporaryDirectory() + "shopy-picture-cache-\(UUID().uuidString.prefix(8))/images"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent)
    }

    func testBoundedOldestFirstAndPrivate() throws {
        let cache = PictureCache(directory: directory, limit: 350_000)
        let picture = [UInt8](repeating: 7, count: 100_000)
        for i in 0..<3 {
            try cache.write("https://example.com/\(i).png", bytes: picture, format: .png)
            // Distinct modification times, oldest first.
            var times = [timespec(tv_sec: 1_000_000 + i * 10, tv_nsec: 0), timespec(tv_sec: 1_000_000 + i * 10, tv_nsec: 0)]
            XCTAssertEqual(utimensat(AT_FDCWD, cache.path(for: "https://example.com/\(i).png"), &times, 0), 0)
        }
        // Reading 0 makes it the most recently used: 1 goes first when 3 arrives.
        XCTAssertNotNil(cache.read("https://example.com/0.png"))
        try cache.write("https://example.com/3.png", bytes: picture, format: .png)
        XCTAssertNotNil(cache.read("https://example.com/0.png"))
        XCTAssertNil(cache.read("https://example.com/1.png"), "the least recently used went")
        XCTAssertNotNil(cache.read("https://example.com/3.png"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        XCTAssertEqual(names.count, 3)
        for name in names { XCTAssertEqual(FileIO.mode(of: directory + "/" + name).map { $0 & 0o777 }, 0o600, name) }
        XCTAssertEqual(FileIO.mode(of: directory).map { $0 & 0o777 }, 0o700)
    }

    func testAFileIsOnlyTakenForItsOwnURLAndDamageIsAMiss() throws {
        let cache = PictureCache(directory: directory)
        try cache.write("https://example.com/a.png", bytes: [1, 2, 3], format: .png)
        let read = cache.read("https://example.com/a.png")
        XCTAssertEqual(read?.bytes, [1, 2, 3])
        XCTAssertEqual(read?.format, .png)
        // Another URL landing on the same file name (forced here) is a miss.
        let path = cache.path(for: "https://example.com/a.png")
        try Data("shopy-picture 1\nhttps://other/\npng\nxyz".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(cache.read("https://example.com/a.png"))
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(cache.read("https://example.com/a.png"))
        // A symbolic link is never followed.
        unlink(path)
        XCTAssertEqual(symlink("/etc/passwd", path), 0)
        XCTAssertNil(cache.read("https://example.com/a.png"))
    }

    func testTheDirectoryFollowsXDG() {
        XCTAssertEqual(PictureCache(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/h"]).directory, "/x/cache/shopy/images")
        XCTAssertEqual(PictureCache(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"]).directory, "/h/.cache/shopy/images")
        XCTAssertEqual(PictureCache(environment: ["HOME": "/h"]).directory, "/h/.cache/shopy/images")
    }

    func testRedirectRules() {
        let http = URL(string: "http://img.example.com/a.png")!, https = URL(string: "https://img.example.com/a.png")!
        XCTAssertNotNil(try? PictureFetcher.redirectTarget(from: http, location: "https://cdn.example.net/b.png").get())
        XCTAssertNotNil(try? PictureFetcher.redirectTarget(from: http, location: "/b.png").get())
        XCTAssertNil(try? PictureFetcher.redirectTarget(from: http, location: "http://other.example.com/b.png").get())
        XCTAssertNil(try? PictureFetcher.redirectTarget(from: https, location: "http://img.example.com/b.png").get(), "no downgrade")
        XCTAssertNil(try? PictureFetcher.redirectTarget(from: http, location: "file:///etc/passwd").get())
        XCTAssertNil(try? PictureFetcher.redirectTarget(from: http, location: "data:image/png;base64,AAAA").get())
        XCTAssertNil(try? PictureFetcher.redirectTarget(from: http, location: nil).get())
        XCTAssertNil(PictureFetcher.imageURL("ftp://x/y.png"))
        XCTAssertNil(PictureFetcher.imageURL("http://x/a b.png"))
        XCTAssertNotNil(PictureFetcher.imageURL("https://shopping-phinf.pstatic.net/main_1/1.jpg"))
    }
}
