// The live sources' tests share the providers' recorded shapes (FixedSource, a fake source, is in
// ShopYCoreTestSupport).

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYBase
import ShopYTestSupport

/// The providers' recorded shapes in Fixtures/elevenst and Fixtures/coupang (Fixtures/README.md
/// says where each shape comes from).
enum LiveFixtures {
    static let directory = Repository.fixtures()

    static func bytes(_ path: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: directory.appendingPathComponent(path)))
    }
}
