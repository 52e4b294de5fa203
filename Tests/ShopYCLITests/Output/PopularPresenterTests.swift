// Tests for Sources/ShopYCLI/Output/PopularPresenter.swift: popular's sections share one table and
// one header, and every price ends in the same column.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

final class PopularPresenterTests: XCTestCase {
    func testPopularSectionsShareOneTableAndHeader() async {
        let run = await Home().run(["popular", "--size", "4", "--format", "table"], environment: ["COLUMNS": "90"])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.contains("PRICE") }.count, 1, "one header: \(lines)")
        XCTAssertTrue(lines[0].contains("PRICE"), "the header comes first")
        let rows = lines.filter { $0.range(of: #"^\s*\d\.\d+ "#, options: .regularExpression) != nil }
        XCTAssertEqual(rows.count, 12)
        // Every price ends in the same column, in every section.
        let ends = Set(rows.map { row -> Int in
            let upTo = row.range(of: "원")!.upperBound
            return DisplayWidth.of(String(row[..<upTo]))
        })
        XCTAssertEqual(ends.count, 1, "prices line up across sections: \(rows)")
    }
}
