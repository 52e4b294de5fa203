// Tests for Sources/ShopYBase/Files/BoundedRead.swift: a stream is read in bounded chunks, and
// one past the limit is refused.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYBase

final class BoundedReadTests: XCTestCase {
    func testAStreamIsReadInBoundedChunks() throws {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        let bytes = [UInt8](repeating: 0x20, count: 3000)
        XCTAssertNil(FileIO.writeAll(bytes[...], to: fds[1]))
        close(fds[1])
        defer { close(fds[0]) }
        XCTAssertThrowsError(try FileIO.readBounded(fds[0], shown: "stdin", limit: 2000)) { error in
            XCTAssertEqual(error as? StoreError, .invalidImport(path: "stdin", problem: "it is larger than 2000 bytes, the most shopy imports"))
        }
        var more: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&more), 0)
        XCTAssertNil(FileIO.writeAll(bytes[...], to: more[1]))
        close(more[1])
        defer { close(more[0]) }
        XCTAssertEqual(try FileIO.readBounded(more[0], shown: "stdin", limit: 3000), bytes)
    }
}
