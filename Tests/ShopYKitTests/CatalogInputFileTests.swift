import Foundation
import XCTest
@testable import ShopYCore

/// An import's input file read in two halves at once gives exactly the file's bytes; small
/// files, missing files and directories behave as `FileIO.read`.
final class CatalogInputFileTests: StoreDirectoryTestCase {
    func testALargeFileIsReadWhole() throws {
        // An odd length over the threshold, every byte depending on its offset.
        let count = CatalogInputFile.parallelSize + 12_345
        var bytes = [UInt8](repeating: 0, count: count)
        var state: UInt64 = 17
        for i in 0..<count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes[i] = UInt8(truncatingIfNeeded: state >> 33)
        }
        let path = directory + "/large.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let read = try XCTUnwrap(try CatalogInputFile.read(path))
        XCTAssertEqual(read.count, count)
        XCTAssertTrue(read == bytes, "the halves must join into the file's bytes")
        XCTAssertEqual(read, try FileIO.read(path))
    }

    func testSmallMissingAndDirectoryAreAsFileIO() throws {
        let path = directory + "/small.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("[{\"productId\":\"1\"}]".utf8)))
        XCTAssertEqual(try CatalogInputFile.read(path), try FileIO.read(path))
        XCTAssertNil(try CatalogInputFile.read(directory + "/missing.json"))
        XCTAssertThrowsError(try CatalogInputFile.read(directory)) { error in
            XCTAssertTrue(error is StoreError, "\(error)")
        }
        XCTAssertThrowsError(try FileIO.read(directory))
    }
}
