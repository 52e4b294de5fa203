// Tests for Sources/ShopYCLI/CLI/ManPage.swift: `shopy help --man` covers the declarations and
// is clean for mandoc -T lint and groff -ww (each skips when not installed).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class ManPageTests: XCTestCase {
    func page() async -> String {
        let run = await Shell.run(["help", "--man"])
        XCTAssertEqual(run.code, 0, run.stderr)
        return run.stdout
    }

    func testCoversCommandsOptionsEnvironmentFilesAndExitCodes() async {
        let page = await page()
        XCTAssertTrue(page.hasPrefix(".TH SHOPY 1 "))
        for option in CommandSpec.commonOptions { XCTAssertTrue(page.contains("\\-\\-\(option.name)"), option.name) }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "ENVIRONMENT", "FILES", "EXIT STATUS"] {
            XCTAssertTrue(page.contains("\n.SH \(section)\n"), section)
        }
        for type in ShopY.commands {
            XCTAssertTrue(page.contains(".SS shopy \(type.spec.name)"), type.spec.name)
            for option in type.spec.options where !CommandSpec.commonOptions.contains(where: { $0.name == option.name }) {
                XCTAssertTrue(page.contains("\\-\\-\(ManPage.text(option.name))"), "\(type.spec.name) --\(option.name)")
            }
            for sub in type.subcommands { XCTAssertTrue(page.contains(".SS shopy \(type.spec.name) \(sub.spec.name)"), sub.spec.name) }
        }
        for variable in ["NAVER_CLIENT_ID", "SHOPY_API_BASE", "SHOPY_HOME", "NO_COLOR", "CLICOLOR_FORCE", "BROWSER"] + ConfigKey.all.map(\.variable) {
            XCTAssertTrue(page.contains(".TP\n" + ManPage.text(variable)) || page.contains(ManPage.text(variable) + ", "), variable)
        }
        for code in ExitCode.allCases { XCTAssertTrue(page.contains(".TP\n\(code.rawValue)\n"), "exit \(code.rawValue)") }
        XCTAssertTrue(page.contains("\\[uBC29]\\[uCDA9]\\[uB9DD]"), "방충망 as roff escapes")
        for line in page.split(separator: "\n") where !line.hasPrefix(".") {
            XCTAssertFalse(line.hasPrefix("'"), "a text line must not start a request: \(line)")
        }
        let bad = await Shell.run(["help", "--man", "search"])
        XCTAssertEqual(bad.code, 64)
    }

    func tool(_ name: String) throws -> String {
        for directory in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
            return directory + "/" + name
        }
        throw XCTSkip("\(name) is not installed; the man page is not checked with it")
    }

    func run(_ tool: String, _ arguments: [String], input: String) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        nonisolated(unsafe) var out = Data(), err = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { out = stdout.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { err = stderr.fileHandleForReading.readDataToEndOfFile() }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    func testMandocLintIsClean() async throws {
        let mandoc = try tool("mandoc")
        let page = await page()
        let (status, out, err) = try run(mandoc, ["-T", "lint", "-W", "all"], input: page)
        XCTAssertEqual(out + err, "", "mandoc -T lint -W all")
        XCTAssertEqual(status, 0)
    }

    func testGroffIsCleanAndRenders() async throws {
        let groff = try tool("groff")
        let page = await page()
        let (status, out, err) = try run(groff, ["-ww", "-man", "-Tutf8"], input: page)
        XCTAssertEqual(err, "", "groff -ww warnings")
        XCTAssertEqual(status, 0)
        XCTAssertTrue(out.contains("SHOPY(1)"))
        XCTAssertTrue(out.contains("방충망"), "UTF-8 rendered")
    }
}
