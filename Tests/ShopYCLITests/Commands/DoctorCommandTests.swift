// Tests for Sources/ShopYCLI/Commands/DoctorCommand.swift in process: a SHOPY_HOME that is a file
// is refused and never chmod-ed, and a damaged file is named once. The likes' files:
// DoctorLikesFilesTests; bad settings: SettingsDiagnosticsTests.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class DoctorCommandTests: XCTestCase {
    private var scratch: [String] = []

    override func tearDown() {
        for path in scratch { try? FileManager.default.removeItem(atPath: path) }
        super.tearDown()
    }

    private func temporaryPath(_ name: String) -> String {
        let path = NSTemporaryDirectory() + "shopy-doctor-\(UUID().uuidString.prefix(8))-\(name)"
        scratch.append(path)
        return path
    }

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

    func testDoctorNamesTheFileOnce() async throws {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        try "{\"schema\":1,".write(toFile: home.path + "/likes.json", atomically: true, encoding: .utf8)
        let run = await home.run(["doctor"])
        XCTAssertEqual(run.code, 65)
        let line = try XCTUnwrap(run.stdout.split(separator: "\n").first { $0.contains("likes.json") })
        XCTAssertEqual(line.components(separatedBy: "likes.json").count, 2, "the path once: \(line)")
        XCTAssertTrue(line.contains("damaged: it is not valid JSON"), String(line))
    }

    /// prices.json was never read by doctor (it printed the preferences' summary for it): a
    /// damaged one, which stops `likes` with 65 and a hint to run `doctor --repair`, was
    /// reported "ok" and never moved aside.
    func testDoctorChecksAndRepairsPricesJSON() async throws {
        let home = Home()
        try FileManager.default.createDirectory(atPath: home.path, withIntermediateDirectories: true)
        let prices = home.path + "/prices.json"
        try #"{"schema":1,"prices":{"1":{"points":[{"at":"2026-12-01T00:00:00Z","price":900}],"lowest":{"at":"2026-12-01T00:00:00Z","price":900},"highest":{"at":"2026-12-01T00:00:00Z","price":900},"alert":{"below":800,"armed":true}}}}"#
            .write(toFile: prices, atomically: true, encoding: .utf8)
        let sound = await home.run(["doctor"])
        XCTAssertEqual(sound.code, 0, sound.stdout + sound.stderr)
        let line = try XCTUnwrap(sound.stdout.split(separator: "\n").first { $0.contains("prices.json") })
        XCTAssertTrue(line.contains("ok · 1 like with a price history, 1 alert"), String(line))

        // Cut short, and not the shape of a price book.
        for damage in [#"{"schema":1,"prices":{"1":{"points":[{"at":"2026-12"#, #"{"schema":1,"prices":{"1":{"points":[{"price":5}]}}}"#] {
            try damage.write(toFile: prices, atomically: true, encoding: .utf8)
            let likes = await home.run(["likes"])
            XCTAssertEqual(likes.code, 65, likes.stderr)
            let check = await home.run(["doctor"])
            XCTAssertEqual(check.code, 65, check.stdout)
            XCTAssertTrue(check.stdout.split(separator: "\n").contains { $0.contains("prices.json") && $0.contains("damaged") }, check.stdout)
            let repaired = await home.run(["doctor", "--repair"])
            XCTAssertEqual(repaired.code, 0, repaired.stdout + repaired.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: prices), "moved aside")
            XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: home.path).contains { $0.hasPrefix("prices.damaged-") })
            let after = await home.run(["likes"])
            XCTAssertEqual(after.code, 0, after.stderr)
        }
    }
}
