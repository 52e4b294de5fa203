import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYEmulator
@testable import ShopYBase
@testable import ShopYCatalog
import ShopYTestSupport

/// `shopy show` in process, against the emulator on loopback: the card with its picture on a
/// terminal, the cache drawing it with no network, and every bad input of a picture's answer
/// ending in the link, the reason under --verbose, no crash, no hang, no foreign escape sequence.
final class ShowPictureTests: XCTestCase {
    var home = ""
    var cache = ""

    override func setUpWithError() throws {
        try PictureFixtures.require(.chafa)
        try PictureFixtures.require(.png)
        let base = NSTemporaryDirectory() + "shopy-show-\(UUID().uuidString.prefix(8))"
        home = base + "/home"
        cache = base + "/cache"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: (home as NSString).deletingLastPathComponent)
    }

    func environment(_ server: EmulatorServer) -> [String: String] {
        ["SHOPY_HOME": home, "XDG_CACHE_HOME": cache, "SHOPY_API_BASE": server.baseURL, "NAVER_CLIENT_ID": "emulator-id",
         "NAVER_CLIENT_SECRET": "emulator-secret", "TERM": "xterm-256color", "COLORTERM": "truecolor", "LINES": "30", "HOME": home]
    }

    func run(_ arguments: [String], _ environment: [String: String], terminal: Bool = true) async -> (code: Int32, out: String, err: String) {
        let io = IO.capture(environment: environment, stdoutIsTerminal: terminal, columns: 100)
        let code = await ShopY.main(arguments, io: io)
        return (code, io.stdout.text, io.stderr.text)
    }

    func emulator(_ fault: PictureFault? = nil) throws -> EmulatorServer {
        var config = EmulatorConfig()
        config.imageFault = fault
        config.slowByteIntervalMilliseconds = 300
        let server = EmulatorServer(config: config)
        try server.start()
        return server
    }

    /// Only SGR sequences (and no other control characters) in `text`.
    func assertOnlySGR(_ text: String, file: StaticString = #filePath, line: UInt = #line) {
        let stripped = text.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        XCTAssertFalse(stripped.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F }, stripped.debugDescription, file: file, line: line)
    }

    func testTheCardWithItsPictureThenFromTheCacheWithNoNetwork() async throws {
        let server = try emulator()
        var env = environment(server)
        let search = await run(["search", "방충망", "--size", "3"], env, terminal: false)
        XCTAssertEqual(search.code, 0, search.err)
        let shown = await run(["show", "1", "-v"], env)
        XCTAssertEqual(shown.code, 0, shown.err)
        XCTAssertTrue(shown.out.contains("▀") || shown.out.contains("▄") || shown.out.contains("█"), "symbols drawn: \(shown.out)")
        XCTAssertTrue(shown.out.contains("productId 11124150101"), shown.out)
        XCTAssertTrue(shown.err.contains("picture: GET http://127.0.0.1:"), shown.err)
        assertOnlySGR(shown.out)
        // The cache: one 0600 file in a 0700 directory.
        let directory = cache + "/shopy/images"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        XCTAssertEqual(files.count, 1)
        XCTAssertEqual(FileIO.mode(of: directory).map { $0 & 0o777 }, 0o700)
        XCTAssertEqual(FileIO.mode(of: directory + "/" + files[0]).map { $0 & 0o777 }, 0o600)
        // No network: the emulator is gone, the picture still draws.
        server.stop()
        env["SHOPY_API_BASE"] = "http://127.0.0.1:9"
        let offline = await run(["show", "1", "-v"], env)
        XCTAssertEqual(offline.code, 0)
        XCTAssertTrue(offline.out.contains("▀") || offline.out.contains("▄"), offline.out)
        XCTAssertTrue(offline.err.contains("picture: from the cache"), offline.err)
        XCTAssertFalse(offline.err.contains("GET"), offline.err)
    }

    func testJSONAndPipesDrawNoPicture() async throws {
        let server = try emulator()
        defer { server.stop() }
        let env = environment(server)
        _ = await run(["search", "방충망", "--size", "3"], env, terminal: false)
        let json = await run(["show", "2", "--json"], env)
        XCTAssertEqual(json.code, 0, json.err)
        let value = try JSONParser.parse(Array(json.out.utf8))
        XCTAssertEqual(value["productId"]?.stringValue, "80285861246")
        XCTAssertEqual(value["rank"]?.intValue, 2)
        XCTAssertEqual(value["liked"], .bool(false))
        let piped = await run(["show", "2", "-v"], env, terminal: false)
        XCTAssertFalse(piped.out.contains("\u{1B}"), piped.out)
        XCTAssertTrue(piped.err.contains("stdout is not a terminal"), piped.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache + "/shopy/images"), "nothing fetched for a pipe")
    }

    func testAnIDTheLikesKnowAndOneThatNobodyKnows() async throws {
        let server = try emulator()
        defer { server.stop() }
        let env = environment(server)
        let liked = await run(["like", "--id", "80285861246"], env, terminal: false)
        XCTAssertEqual(liked.code, 0, liked.err)
        let shown = await run(["show", "--id", "80285861246", "--images", "off"], env)
        XCTAssertEqual(shown.code, 0, shown.err)
        XCTAssertTrue(shown.out.contains("liked     yes, since"), shown.out)
        let unknown = await run(["show", "--id", "999999999999"], env)
        XCTAssertEqual(unknown.code, 64, unknown.err)
    }

    /// Every bad input: the card with its link, exit 0, the reason with --verbose (a picture that
    /// trickles in: the deadline's, "within the timeout").
    func testBadPicturesEndInTheLink() async throws {
        let cases: [(PictureFault, String)] = [
            (.truncated, "stopped after"),
            (.corrupt, "does not decode"),
            (.lyingType, "not a JPEG, PNG, WebP or GIF"),
            (.mislabeled, "said image/jpeg but sent a PNG"),
            (.huge, "1×100000 pixels"),
            (.endless, "larger than 8 MiB"),
            (.slow, "within the timeout"),
            (.redirectFile, "file: address is not followed"),
            (.redirectHTTP, "http on another host"),
            (.redirectLoop, "more than 3 redirects"),
        ]
        for (fault, reason) in cases {
            let server = try emulator(fault)
            let env = environment(server)
            let search = await run(["search", "방충망", "--size", "1"], env, terminal: false)
            XCTAssertEqual(search.code, 0, search.err)
            let shown = await run(["show", "1", "-v", "--timeout", "2"], env)
            server.stop()
            XCTAssertEqual(shown.code, 0, "\(fault): \(shown.err)")
            XCTAssertTrue(shown.out.contains("link      https://"), "\(fault): the link: \(shown.out)")
            XCTAssertFalse(shown.out.contains("▀"), "\(fault): no picture")
            XCTAssertTrue(shown.err.contains(reason), "\(fault): '\(reason)' in \(shown.err)")
            XCTAssertFalse(shown.out.contains("owned") || shown.err.contains("owned"), "\(fault): nothing of the body shown")
            assertOnlySGR(shown.out)
            assertOnlySGR(shown.err)
            let cached = (try? FileManager.default.contentsOfDirectory(atPath: cache + "/shopy/images")) ?? []
            XCTAssertTrue(cached.isEmpty, "\(fault): nothing cached: \(cached)")
        }
    }

    func testARedirectOnTheSameHostIsFollowed() async throws {
        let server = try emulator(.redirectSame)
        defer { server.stop() }
        let env = environment(server)
        _ = await run(["search", "방충망", "--size", "1"], env, terminal: false)
        let shown = await run(["show", "1", "-v"], env)
        XCTAssertTrue(shown.err.contains("picture: redirected to"), shown.err)
        XCTAssertTrue(shown.out.contains("▀") || shown.out.contains("▄"), shown.out)
    }

    /// `shopy show -v` of a cached bomb: the card and its link, the reason on stderr, no picture.
    func testShowSaysWhyABombIsNotDrawn() async throws {
        try PictureFixtures.require(.chafa)
        let base = NSTemporaryDirectory() + "shopy-bound-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: base) }
        let environment = ["SHOPY_HOME": base + "/home", "XDG_CACHE_HOME": base + "/cache", "HOME": base + "/home",
                           "TERM": "xterm-256color", "COLORTERM": "truecolor", "LINES": "30"]
        try FileManager.default.createDirectory(atPath: base + "/home", withIntermediateDirectories: true)
        let search = IO.capture(environment: environment, stdoutIsTerminal: false, columns: 100)
        let searched = await ShopY.main(["search", "방충망", "--size", "1", "--source", "catalog"], io: search)
        XCTAssertEqual(searched, 0, search.stderr.text)
        let item = try XCTUnwrap(Catalog.embedded.search(SearchRequest(query: "방충망", display: 1)).items.first?.image)
        try PictureCache(directory: base + "/cache/shopy/images").write(item, bytes: ZeroPNG.make(width: 8192, height: 8192), format: .png)
        let show = IO.capture(environment: environment, stdoutIsTerminal: true, columns: 100)
        let shown = await ShopY.main(["show", "1", "-v", "--images", "symbols"], io: show)
        XCTAssertEqual(shown, 0, show.stderr.text)
        XCTAssertTrue(show.stderr.text.contains("8192×8192 pixels (67.1 megapixels)"), show.stderr.text)
        XCTAssertTrue(show.stdout.text.contains("link "), show.stdout.text)
        XCTAssertFalse(show.stdout.text.contains("▀"), "no picture drawn: \(show.stdout.text)")
    }
}
