// Regression tests from the hostile review of the parser, help, config, completions and the
// search/history/status/doctor commands (branch review-cli): each failed before its fix.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI

final class CLIReviewTests: XCTestCase {
    private var scratch: [String] = []

    override func tearDown() {
        for path in scratch { try? FileManager.default.removeItem(atPath: path) }
        super.tearDown()
    }

    private func temporaryPath(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "shopy-review-\(UUID().uuidString.prefix(8))-\(name)"
        scratch.append(path)
        return path
    }

    // MARK: doctor

    /// SHOPY_HOME naming a regular file: doctor reported every file "not created yet" (exit 0),
    /// and --repair chmod-ed the user's file to 0700 before failing.
    func testDoctorRefusesAHomeThatIsAFileAndNeverChmodsIt() async throws {
        let file = temporaryPath("home-file")
        try Data("mine\n".utf8).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(chmod(file, 0o644), 0)
        for arguments in [["doctor"], ["doctor", "--repair"], ["doctor", "--json"]] {
            let run = await Shell.run(arguments, environment: ["SHOPY_HOME": file])
            XCTAssertEqual(run.code, 74, "\(arguments): \(run.stdout)\(run.stderr)")
            XCTAssertEqual(run.stdout, "", "\(arguments)")
            XCTAssertEqual(run.stderrLines, ["shopy: cannot use the directory \(file): not a directory"], "\(arguments)")
            XCTAssertEqual(FileIO.mode(of: file), 0o644, "\(arguments) changed the file's mode")
        }
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), "mine\n")
    }
}
