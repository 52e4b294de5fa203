// What the completion tests share: the real shells, the environment they run in (the built
// shopy first on PATH, as an installed one would be), and the completion scripts written out.

import Foundation
import XCTest

enum CompletionShells {
    /// The shell's path; a skip naming the package when it is not installed.
    static func path(_ name: String) throws -> String {
        for directory in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
            return directory + "/" + name
        }
        throw XCTSkip("\(name) is not installed (apt-get install \(name)); its completion is not tested")
    }

    static func environment(home: String) -> [String: String] {
        ["PATH": Binary.productsDirectory.path + ":/usr/bin:/bin", "SHOPY_HOME": home, "HOME": home, "TERM": "xterm",
         "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
    }

    /// `shopy completions SHELL` written to `directory` (default: the home): its path.
    static func script(_ shellName: String, home: String, into directory: String? = nil,
                       file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try runShopy(["completions", shellName], home: home)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let path = (directory ?? home) + "/shopy." + shellName
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
