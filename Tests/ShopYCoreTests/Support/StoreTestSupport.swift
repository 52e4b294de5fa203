// The store's unit tests share these: a fresh directory per test (StoreDirectoryTestCase), a
// store that does not exist yet, products and likes, file helpers, the expectation of a
// StoreError about a file, and timestamps from several threads.

import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ShopYCore
@testable import ShopYBase
import ShopYCLI  // ExitCode(for:) only: the one place errors become exit codes

/// Timestamps from several threads, in the order they happened.
final class Events: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [String: UInt64] = [:]
    private(set) var failures: [String] = []

    func mark(_ name: String) {
        lock.lock()
        times[name] = DispatchTime.now().uptimeNanoseconds
        lock.unlock()
    }

    func fail(_ text: String) {
        lock.lock()
        failures.append(text)
        lock.unlock()
    }

    func time(_ name: String) -> UInt64? {
        lock.lock()
        defer { lock.unlock() }
        return times[name]
    }
}

class StoreUnitTestCase: StoreDirectoryTestCase {

    /// A store whose directory does not exist yet (shopy creates it).
    func makeStore() -> SettingsStore { SettingsStore(directory: directory + "/home") }

    func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func names(in path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Inode, size and modification time: what changes when a file is rewritten or replaced.
    func identity(_ path: String) -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        return [Int(info.st_ino), Int(info.st_size), Int(info.st_mtim.tv_sec), Int(info.st_mtim.tv_nsec)]
    }

    func product(_ id: String, price: Int? = 12_900, title: String = "상품") -> Product {
        Product(productId: id, title: title, price: price, highPrice: price.map { $0 * 2 }, mall: "몰", brand: "브랜드", maker: nil,
                categories: ["생활/건강", "생활용품"], productType: 2, link: "https://example.com/\(id)",
                image: "https://example.com/\(id).jpg")
    }

    func like(_ id: String, price: Int? = 12_900, title: String = "상품", at likedAt: String = "2026-01-02T03:04:05Z") -> Like {
        Like(product: product(id, price: price, title: title), likedAt: likedAt, likedPrice: price)
    }

    func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
        let old = umask(mask)
        defer { umask(old) }
        return try body()
    }

    /// Runs `body`, which must fail with a StoreError about `path`; returns that error.
    @discardableResult
    func expectStoreError(_ path: String, _ what: String, file: StaticString = #filePath, line: UInt = #line,
                                  _ body: () throws -> Void) -> StoreError? {
        do {
            try body()
            XCTFail("\(what): expected a StoreError about \(path), got success", file: file, line: line)
            return nil
        } catch let error as StoreError {
            switch error {
            case .damaged(let errorPath, let problem):
                XCTAssertEqual(errorPath, path, what, file: file, line: line)
                XCTAssertFalse(problem.isEmpty, what, file: file, line: line)
            case .newerSchema(let errorPath, _, _):
                XCTAssertEqual(errorPath, path, what, file: file, line: line)
            default:
                XCTFail("\(what): expected .damaged or .newerSchema, got \(error)", file: file, line: line)
            }
            XCTAssertTrue(error.message.contains(path), "\(what): the message names the file: \(error.message)", file: file, line: line)
            XCTAssertEqual(ExitCode(for: error), .dataError, what, file: file, line: line)
            return error
        } catch {
            XCTFail("\(what): expected a StoreError, got \(type(of: error)): \(error)", file: file, line: line)
            return nil
        }
    }

    /// A like with the defaults above (the base class's `like(_:)`, with this file's product).
    override func like(_ id: String) -> Like { like(id, price: 12_900, title: "상품", at: "2026-01-02T03:04:05Z") }
}
