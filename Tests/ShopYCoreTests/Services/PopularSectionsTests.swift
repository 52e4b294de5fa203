// Tests for Sources/ShopYCore/Services/PopularSections.swift: the sections of `popular` fetched
// from one source, a failed one keeping its error beside the others' pages.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase

final class PopularSectionsTests: XCTestCase {
    func testPopularFailedSectionKeepsItsErrorAndTheOthersTheirPages() async throws {
        struct Failing: ProductSource {
            var kind: SourceKind { .naver }
            func search(_ request: SearchRequest) async throws -> SearchPage {
                if request.query == "나쁨" { throw SourceError.timeout(seconds: 1, host: "x") }
                return try await CatalogSource().search(request)
            }
        }
        let sections = await PopularSections.fetch(["캣타워", "나쁨", "세제"], size: 2, source: Failing())
        XCTAssertEqual(sections.map(\.keyword), ["캣타워", "나쁨", "세제"])
        XCTAssertNotNil(sections[0].page)
        XCTAssertNotNil(sections[1].error as? SourceError)
        XCTAssertEqual(sections[2].page?.items.count, 2)
    }
}
