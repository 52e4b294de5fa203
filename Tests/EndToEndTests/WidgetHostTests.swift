// Every snippet of `shopy widget install BAR` as printed, in its real host where Debian has
// one: i3blocks 1.4 (runs without i3, prints the i3bar JSON, takes click events on stdin),
// polybar under Xvfb (its log says which command it ran and how it ended), tmux in a
// pseudo-terminal (its status line). Waybar needs a Wayland compositor and SwiftBar is macOS
// only: their snippets go through /bin/sh, as those hosts run them (waybar: `sh -c`).
//
// shopy runs from a directory whose name holds what a shell, an ini file, tmux's formats and
// strftime act on (quotes, `$`, `#`, `%`, `;`, `\`, an unbalanced parenthesis, a `'` before a
// combining mark), and the store is such a path too (SHOPY_HOME). Missing hosts skip.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase
import ShopYTestSupport

final class WidgetHostTests: XCTestCase {
    var home: TestHome!
    var executable = ""
    var store = ""
    var opened = ""
    var browser = ""

    static let hostileName = "bin 'q'\u{0301} \"d\" $HOME `x` #h %d (p ;b \\ z"

    override func setUpWithError() throws {
        home = TestHome()
        let directory = home.path + "/" + Self.hostileName
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        executable = directory + "/shopy"
        // A hard link keeps /proc/self/exe at this path (a copy where links cannot be made).
        if link(Binary.path("shopy"), executable) != 0 { try FileManager.default.copyItem(atPath: Binary.path("shopy"), toPath: executable) }
        store = home.path + "/store $HOME 'x' #%d ;"
        opened = home.path + "/opened"
        browser = home.path + "/browser.sh"
        try "#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(opened)'\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        // The default set, as a new user has it: its first item is the status, which has no
        // link, so a click must open the first item that has one (the popular section, filled
        // from the offline catalog).
        let refreshed = try shopy(["widget", "refresh"])
        XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
    }

    override func tearDown() { home.remove() }

    var environment: [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": home.path, "SHOPY_HOME": store, "BROWSER": browser, "LANG": "C.UTF-8", "SHOPY_WIDGET_BACKGROUND": "off"]
    }

    /// The hostile-path shopy, run directly (no shell).
    func shopy(_ arguments: [String]) throws -> RunResult {
        try runProcess(executable, arguments, environment: environment, home: store)
    }

    func snippet(_ bar: String) throws -> String {
        let result = try shopy(["widget", "install", bar])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    func tool(_ name: String, package: String) throws -> String {
        for directory in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
            return directory + "/" + name
        }
        throw XCTSkip("\(name) is not installed (apt-get install \(package)); its widget snippet is not run in it")
    }

    func openedLinks() -> [String] {
        ((try? String(contentsOfFile: opened, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The link of the widget's first item that has one, as `widget --format json` gives it
    /// (after an item without: the status).
    func firstLink() throws -> String {
        let json = try JSONParser.parse(Array(try shopy(["widget", "--format", "json"]).stdout.utf8))
        let items = try XCTUnwrap(json["items"]?.arrayValue)
        XCTAssertNil(items.first?["link"]?.stringValue, "the default set starts with the status, which has no link")
        return try XCTUnwrap(items.lazy.compactMap { $0["link"]?.stringValue }.first)
    }

    func waitUntil(_ seconds: Double = 20, _ condition: () -> Bool) -> Bool {
        eventually(within: seconds, condition)
    }

    // MARK: - i3blocks

    func testI3blocksShowsTheBlockAndOpensOnAClick() throws {
        let i3blocks = try tool("i3blocks", package: "i3blocks")
        let config = home.path + "/i3blocks.conf"
        try snippet("i3blocks").write(toFile: config, atomically: true, encoding: .utf8)
        let expected = try shopy(["widget", "--format", "i3blocks"]).stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: i3blocks)
        process.arguments = ["-c", config]
        var env = environment
        env["SHOPY_HOME"] = nil  // the snippet names the store itself
        process.environment = env
        let input = Pipe(), output = home.path + "/i3blocks.out", errors = home.path + "/i3blocks.err"
        FileManager.default.createFile(atPath: output, contents: nil)
        FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardInput = input
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        func block() -> JSONValue? {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n").reversed() {
                let array = line.hasPrefix(",") ? line.dropFirst() : line[...]
                guard let value = try? JSONParser.parse(Array(array.utf8)), let blocks = value.arrayValue else { continue }
                if let shopy = blocks.first(where: { $0["name"]?.stringValue == "shopy" }) { return shopy }
            }
            return nil
        }
        XCTAssertTrue(waitUntil { block() != nil }, "no shopy block: \((try? String(contentsOfFile: output, encoding: .utf8)) ?? "")")
        let shown = try XCTUnwrap(block())
        XCTAssertEqual(shown["full_text"]?.stringValue, expected[0])
        XCTAssertEqual(shown["short_text"]?.stringValue, expected[1])
        let logged = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        XCTAssertFalse(logged.contains("bad exit code"), logged)

        // A left click (the i3bar protocol's click event on stdin) opens the first item.
        input.fileHandleForWriting.write(Data("[\n{\"name\":\"shopy\",\"instance\":\"\",\"button\":1,\"x\":10,\"y\":5}\n".utf8))
        XCTAssertTrue(waitUntil { !openedLinks().isEmpty }, "the click opened nothing; i3blocks said: \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        XCTAssertEqual(openedLinks(), [try firstLink()])
        XCTAssertFalse(((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("bad exit code"))
    }

    // MARK: - polybar

    func testPolybarUnderXvfbRunsTheModuleAndItsClicksRunInSh() throws {
        let polybar = try tool("polybar", package: "polybar")
        let xvfb = try tool("Xvfb", package: "xvfb")
        // Xvfb picks a free display and writes its number once it is ready.
        let server = Process()
        server.executableURL = URL(fileURLWithPath: xvfb)
        server.arguments = ["-displayfd", "1", "-screen", "0", "640x200x24", "-nolisten", "tcp"]
        let displayPipe = Pipe()
        server.standardOutput = displayPipe
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        var number = Data()
        while !number.contains(0x0A) {
            let chunk = displayPipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            number.append(chunk)
        }
        let display = String(decoding: number, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !display.isEmpty else { throw XCTSkip("Xvfb did not start here") }

        let text = try snippet("polybar")
        let config = home.path + "/polybar.ini"
        try ("[bar/test]\nwidth = 600\nheight = 24\nmodules-right = shopy\nfont-0 = fixed:size=10\n\n" + text).write(toFile: config, atomically: true, encoding: .utf8)
        let log = home.path + "/polybar.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        let bar = Process()
        bar.executableURL = URL(fileURLWithPath: polybar)
        bar.arguments = ["-c", config, "-l", "trace", "test"]
        var env = environment
        env["SHOPY_HOME"] = nil
        env["DISPLAY"] = ":" + display
        bar.environment = env
        bar.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        bar.standardError = bar.standardOutput
        try bar.run()
        defer {
            bar.terminate()
            bar.waitUntilExit()
        }
        func logged() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        XCTAssertTrue(waitUntil { logged().contains("command: Exited with") }, logged())
        XCTAssertTrue(logged().contains("command: Exited with status 0"), logged())
        XCTAssertFalse(logged().contains("error:"), logged())

        // The command polybar ran, as it logged it, prints the widget of this store.
        let values = Dictionary(uniqueKeysWithValues: text.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let equals = line.range(of: " = ") else { return nil }
            return (String(line[..<equals.lowerBound]), String(line[equals.upperBound...]).replacingOccurrences(of: "\\\\", with: "\\"))
        })
        let exec = try XCTUnwrap(values["exec"])
        XCTAssertTrue(logged().contains("Invoking shell command: \"\(exec)\""), "polybar read exec as: \(logged())")
        let ran = try runProcess("/bin/sh", ["-c", exec], environment: ["PATH": "/usr/bin:/bin", "HOME": home.path])
        XCTAssertEqual(ran.status, 0, ran.stderr)
        XCTAssertEqual(ran.stdout, try shopy(["widget", "--format", "polybar", "--color=always"]).stdout)
        // Clicks: the same reading of the same file, run as polybar runs them (sh -c).
        let click = try runProcess("/bin/sh", ["-c", try XCTUnwrap(values["click-left"])], environment: ["PATH": "/usr/bin:/bin", "HOME": home.path, "BROWSER": browser])
        XCTAssertEqual(click.status, 0, click.stderr)
        XCTAssertEqual(openedLinks(), [try firstLink()])
    }

    // MARK: - tmux

    func testTmuxStatusLineShowsTheWidget() throws {
        let tmux = try tool("tmux", package: "tmux")
        let config = home.path + "/tmux.conf"
        try (try snippet("tmux") + "set -g status-right-length 300\n").write(toFile: config, atomically: true, encoding: .utf8)
        let plain = try shopy(["widget", "--format", "plain"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let terminal = try PseudoTerminal(rows: 10, columns: 300)
        var env = environment
        env["SHOPY_HOME"] = nil
        env["TERM"] = "xterm"
        let socket = home.path + "/tmux.sock"
        try terminal.spawn([tmux, "-S", socket, "-f", config, "new-session", "sleep 60"], environment: env)
        defer { _ = try? runProcess(tmux, ["-S", socket, "kill-server"]) }
        // What tmux draws, its control sequences left out (it places the status line with
        // sequences the test's screen model does not follow).
        func drawn() -> String { Self.withoutControlSequences(terminal.output) }
        let shown = terminal.wait(timeout: 20) { _ in drawn().contains(plain) }
        XCTAssertTrue(shown, "tmux drew: \(drawn().suffix(400))\nexpected: \(plain)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.path + "/x"), "a backquoted word of the path ran")
    }

    /// `bytes` as text without ESC sequences (CSI up to its final byte, two-byte ones).
    static func withoutControlSequences(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x1B else { out.append(bytes[i]); i += 1; continue }
            i += 1
            guard i < bytes.count else { break }
            if bytes[i] == UInt8(ascii: "[") {
                i += 1
                while i < bytes.count && !(0x40...0x7E).contains(bytes[i]) { i += 1 }
                i += 1
            } else if bytes[i] == UInt8(ascii: "(") || bytes[i] == UInt8(ascii: ")") {
                i += 2
            } else {
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - waybar and SwiftBar (through /bin/sh, as their hosts run them)

    func testWaybarCommandsRunInSh() throws {
        let text = try snippet("waybar")
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("//") }.joined(separator: "\n")
        let module = try XCTUnwrap(JSONParser.parse(Array(("{" + body + "}").utf8))["custom/shopy"])
        let exec = try runProcess("/bin/sh", ["-c", try XCTUnwrap(module["exec"]?.stringValue)], environment: ["PATH": "/usr/bin:/bin", "HOME": home.path])
        XCTAssertEqual(exec.status, 0, exec.stderr)
        XCTAssertEqual(exec.stdout, try shopy(["widget", "--format", "waybar"]).stdout)
        let click = try runProcess("/bin/sh", ["-c", try XCTUnwrap(module["on-click"]?.stringValue)], environment: ["PATH": "/usr/bin:/bin", "HOME": home.path, "BROWSER": browser])
        XCTAssertEqual(click.status, 0, click.stderr)
        XCTAssertEqual(openedLinks(), [try firstLink()])
    }

    func testSwiftBarPluginRunsAsAScript() throws {
        let plugin = home.path + "/shopy.5m.sh"
        try snippet("swiftbar").write(toFile: plugin, atomically: true, encoding: .utf8)
        chmod(plugin, 0o755)
        let ran = try runProcess(plugin, [], environment: ["PATH": "/usr/bin:/bin", "HOME": home.path])
        XCTAssertEqual(ran.status, 0, ran.stderr)
        XCTAssertEqual(ran.stdout, try shopy(["widget", "--format", "swiftbar", "--family", "medium"]).stdout)
    }

    func testAPathWithAControlCharacterIsRefused() throws {
        for bar in WidgetInstall.Bar.allCases {
            var env = environment
            env["SHOPY_HOME"] = home.path + "/a\nb"
            let result = try runProcess(executable, ["widget", "install", bar.rawValue], environment: env)
            assertErrorReport(result, status: 1, contains: ["cannot hold SHOPY_HOME"])
            XCTAssertEqual(result.stdout, "")
        }
    }
}
