// Tests for Sources/ShopYCLI/Output/ProgressBar.swift and the status line of OutputSink
// (CLI/IO.swift): the line keeps its count and gives up the bar first; trace lines clear the
// status line and redraw it.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class ProgressBarTests: XCTestCase {
    func testProgressLineKeepsItsCountAndShrinksTheBarFirst() {
        for columns in [20, 30, 40, 50, 80, 120] {
            let line = ProgressBar.line(keyword: "방충망 자석 현관", scanned: 300, total: 1000, columns: columns)
            XCTAssertTrue(line.hasSuffix("300/1,000"), "\(columns): \(line)")
            XCTAssertLessThanOrEqual(DisplayWidth.of(line), columns - 1, "\(columns): \(line)")
        }
        XCTAssertTrue(ProgressBar.line(keyword: "방충망", scanned: 0, total: 1000, columns: 80).contains(String(repeating: "░", count: 24)))
        let narrow = ProgressBar.line(keyword: "방충망", scanned: 500, total: 1000, columns: 36)
        XCTAssertTrue(narrow.hasPrefix("scanning 방충망 █"), "the keyword stays while the bar can shrink: \(narrow)")
        let tight = ProgressBar.line(keyword: "방충망 자석 현관 베란다", scanned: 500, total: 1000, columns: 30)
        XCTAssertFalse(tight.contains("█") || tight.contains("░"), "no room for a bar: \(tight)")
        XCTAssertTrue(tight.hasPrefix("scanning 방충"), tight)
    }

    func testTraceLinesClearTheStatusLineAndRedrawIt() {
        let sink = OutputSink()
        sink.showStatus("bar 1/2")
        sink.line("shopy: > GET …")
        sink.showStatus("bar 2/2")
        sink.clearStatus()
        sink.line("done")
        let clear = "\r\u{1B}[K"
        XCTAssertEqual(sink.text, clear + "bar 1/2" + clear + "shopy: > GET …\n" + "bar 1/2" + clear + "bar 2/2" + clear + "done\n")
    }
}
