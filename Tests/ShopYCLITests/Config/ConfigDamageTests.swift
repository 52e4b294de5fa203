import XCTest
@testable import ShopYCore
@testable import ShopYCLI

/// Issue 12 review: a preferences.json without its "schema" key is as damaged as a truncated
/// one; `search` runs on the built-in defaults and says so the same way for both.
final class ConfigDamageTests: XCTestCase {
    func testSchemalessAndTruncatedPreferencesBothSayConfigIsNotUsed() async throws {
        let cases: [(String, String)] = [
            (#"{"config":{"size":"5"}}"#, #"it has no valid "schema" version"#),
            (#"{"config":{"size":5}}"#, #"it has no valid "schema" version"#),
            (#"{"schema":1,"config":{"size":"5""#, "it is not valid JSON: it ends too early at byte 32 (truncated?)"),
        ]
        for (content, problem) in cases {
            let home = Home()
            try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
            let path = home.path + "/preferences.json"
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(content.utf8)))
            let run = await home.run(["search", "생활", "--source", "catalog"])
            XCTAssertEqual(run.code, 0, run.stderr)
            XCTAssertEqual(run.stdout.split(separator: "\n").count, 20, "the config's size is not used: \(content)")
            XCTAssertEqual(run.stderrLines.first, "shopy: warning: \(path) is damaged: \(problem); config values are not used", content)
            XCTAssertEqual(FileManager.default.contents(atPath: path), Data(content.utf8), "the file is left as it was")
            // The resolution itself: nothing from the file, and the same warning.
            let io = IO.capture(environment: ["SHOPY_HOME": home.path])
            let resolution = ConfigDefaults.resolve(io: io, store: SettingsStore(environment: io.environment), path: "search")
            XCTAssertEqual(resolution.entry("size")?.origin, .builtIn)
            XCTAssertEqual(io.stderr.text, "shopy: warning: \(path) is damaged: \(problem); config values are not used\n")
        }
    }
}
