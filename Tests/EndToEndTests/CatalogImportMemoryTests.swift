import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import ShopYBase

/// `shopy catalog import` of an item with a 30 MB value in every text and link field: the
/// fields are bounded as answers' are, so the import holds little more than the file it reads,
/// and catalog.json, catalog.index and the next search stay small (before: 815 MB at the
/// import, files of hundreds of MB, a search near a gigabyte).
final class CatalogImportMemoryTests: XCTestCase {
    /// The peak RSS of a run in KiB, measured by /usr/bin/time: wait4 on a child that
    /// posix_spawn (CLONE_VM) started would count this test process's own peak.
    func peakKiB(_ arguments: [String], home: String) throws -> (status: Int32, kib: Int) {
        let time = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: time) else { throw XCTSkip("measuring a child's peak memory needs /usr/bin/time") }
        let output = home + "/rss.txt"
        let run = try runProcess(time, ["-f", "%M", "-o", output, Binary.path("shopy")] + arguments, home: home, timeout: 120)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        let kib = try XCTUnwrap(text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }, text)
        XCTAssertEqual(run.status, 0, run.stderr)
        return (run.status, kib)
    }

    func testThirtyMegabyteFieldsKeepTheImportAndTheFilesSmall() throws {
        let home = NSTemporaryDirectory() + "shopy-import-memory-\(getpid())"
        try? FileManager.default.removeItem(atPath: home)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }

        // One item, 30 MB in each of ten fields, written piece by piece.
        let path = home + "/big.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        var text = Array("가".utf8)
        while text.count < 30 << 20 { text += text }
        text = Array(text.prefix(30 << 20))  // 10,485,760 times 가
        let url = Array("https://shop.test/".utf8) + text
        file.write(Data(#"[{"productId":"90000000001","lprice":"1000""#.utf8))
        for key in ["title", "mallName", "brand", "maker", "category1", "category2", "category3", "category4", "link", "image"] {
            file.write(Data(#","\#(key)":""#.utf8))
            file.write(Data(key == "link" || key == "image" ? url : text))
            file.write(Data("\"".utf8))
        }
        file.write(Data("}]".utf8))
        try file.close()
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertGreaterThan(size, 300 << 20)

        let imported = try peakKiB(["catalog", "import", path], home: home)
        // The file is read whole (that much is needed); the fields add at most a few of their bounds.
        XCTAssertLessThan(imported.kib * 1024, size + (128 << 20), "peak of the import: \(imported.kib) KiB for a file of \(size) bytes")
        for name in ["catalog.json", "catalog.index"] {
            let stored = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: home + "/" + name)[.size] as? Int)
            XCTAssertLessThan(stored, 1 << 20, name)
        }
        let searched = try peakKiB(["search", "가가", "--source", "catalog", "--format", "tsv"], home: home)
        XCTAssertLessThan(searched.kib, 128 << 10, "peak of a search: \(searched.kib) KiB")
        let listed = try runShopy(["search", "가가", "--source", "catalog", "--format", "json"], home: home)
        let item = try XCTUnwrap(try JSONParser.parse(Array(listed.stdout.utf8))["items"]?.arrayValue?.first, listed.stdout)
        XCTAssertEqual(item["brand"]?.stringValue?.count, FieldLimits.shopText, "shown as an answer's would be")
        XCTAssertEqual(item["title"]?.stringValue?.count, FieldLimits.title)
        XCTAssertEqual(item["link"], .null, "a link past its bound is left out")
    }
}
