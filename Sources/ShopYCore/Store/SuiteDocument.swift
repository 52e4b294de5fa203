import Foundation
import ShopYBase

/// One suite file, as members of raw JSON bytes.
package struct SuiteDocument {
    var schema: Int
    var keys: [String] = []
    /// Slices of the file as read (no copy), or new bytes for values set in this transaction.
    var raw: [ArraySlice<UInt8>] = []

    func rawValue(_ key: String) -> ArraySlice<UInt8>? {
        keys.firstIndex(of: key).map { raw[$0] }
    }

    mutating func setRaw(_ bytes: ArraySlice<UInt8>, for key: String) {
        if let index = keys.firstIndex(of: key) {
            raw[index] = bytes
        } else {
            keys.append(key)
            raw.append(bytes)
        }
    }

    /// Parses a suite file. Any problem is reported with the file's path; nothing is changed.
    /// `walk`, when given, reads the value of `key` itself (and says how many bytes it took)
    /// instead of the value being skipped first and read again: the likes of a 50 MB snapshot are
    /// walked once. A problem it meets is reported as the value's; a file whose JSON is broken is
    /// reported as without it.
    static func parse(_ bytes: [UInt8], path: String, suite: Suite, walking key: String,
                      _ walk: (ArraySlice<UInt8>) throws(StoredValueError) -> Int) throws(StoreError) -> SuiteDocument {
        var failure: StoredValueError?
        let document: SuiteDocument
        do throws(StoreError) {
            document = try parse(bytes, path: path, suite: suite) { member, start throws(StoredValueError) -> Int? in
                guard member == key else { return nil }
                do throws(StoredValueError) {
                    return try walk(bytes[start...])
                } catch {
                    failure = error
                    throw error
                }
            }
        } catch {
            guard let failure else { throw error }
            // The walk stopped the parse: is the file's JSON whole? If not, that is the problem.
            _ = try parse(bytes, path: path, suite: suite)
            throw .damaged(path: path, problem: "\"\(key)\" \(failure.problem)")
        }
        return document
    }

    static func parse(_ bytes: [UInt8], path: String, suite: Suite,
                      reading: (String, Int) throws(StoredValueError) -> Int? = { _, _ in nil }) throws(StoreError) -> SuiteDocument {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw .damaged(path: path, problem: bytes.isEmpty ? "it is empty" : "it holds only whitespace")
        }
        var document = SuiteDocument(schema: 0)
        var schema: Int?
        let result: Result<Void, JSONParseError> = bytes.withUnsafeBufferPointer { buffer in
            // One pass over the whole file for UTF-8, then a structural walk that skips strings
            // sixteen bytes at a time, rather than checking each string as it is met. A
            // large file (the likes' snapshot) has its UTF-8 checked on another core while it is
            // walked (the walk is safe on any bytes); nothing it found is used before both end.
            let utf8 = UTF8Check(buffer)
            if !utf8.concurrent && !utf8.wait() {
                return .failure(JSONParseError(reason: .invalidString("not valid UTF-8"), offset: 0))
            }
            defer { _ = utf8.wait() }
            var parser = JSONParser(buffer)
            parser.validatesUTF8 = false
            do throws(JSONParseError) {
                try parser.forEachMember { key, start, parser throws(JSONParseError) in
                    let length: Int?
                    do throws(StoredValueError) {
                        length = try reading(key, start)
                    } catch {
                        throw JSONParseError(reason: .unexpected("a value that does not check"), offset: start)
                    }
                    if let length {
                        parser.index = start + length
                        document.keys.append(key)
                        document.raw.append(bytes[start..<(start + length)])
                        return
                    }
                    let range = try parser.skipValue()
                    if key == "schema" {
                        schema = Int(String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self))
                    } else {
                        document.keys.append(key)
                        document.raw.append(bytes[range])
                    }
                }
                try parser.expectEnd()
                guard utf8.wait() else { return .failure(JSONParseError(reason: .invalidString("not valid UTF-8"), offset: 0)) }
                return .success(())
            } catch {
                guard utf8.wait() else { return .failure(JSONParseError(reason: .invalidString("not valid UTF-8"), offset: 0)) }
                return .failure(error)
            }
        }
        if case .failure(let error) = result {
            if case .unexpected = error.reason, error.offset == 0 || bytes.first(where: { $0 > 0x20 }) != UInt8(ascii: "{") {
                throw .damaged(path: path, problem: "it is not a JSON object")
            }
            throw .damaged(path: path, problem: "it is not valid JSON: \(error)")
        }
        guard let schema, schema >= 1 else { throw .damaged(path: path, problem: "it has no valid \"schema\" version") }
        if schema > suite.schema { throw .newerSchema(path: path, found: schema, known: suite.schema) }
        document.schema = schema
        return document
    }

    /// `{"schema":1,` then one member a line: readable, diff-friendly, and cheap to write.
    /// The file as pieces to write one after another: the members' bytes are not copied into
    /// one buffer first (a 5 MB likes list would be, for nothing).
    func pieces(schema: Int) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = [ArraySlice("{\"schema\":\(schema)".utf8)]
        for (key, value) in zip(keys, raw) {
            var writer = JSONWriter()
            writer.append(",\n")
            writer.writeString(key)
            writer.bytes.append(UInt8(ascii: ":"))
            pieces.append(writer.bytes[...])
            pieces.append(value)
        }
        pieces.append(ArraySlice("}\n".utf8))
        return pieces
    }
}

/// The UTF-8 check of a buffer: at once for a small one, on another thread for a large one.
/// `wait` returns the answer (the buffer must outlive it: callers wait before leaving).
private final class UTF8Check: @unchecked Sendable {
    let concurrent: Bool
    private let base: Int
    private let count: Int
    private var valid = true
    private let done = DispatchSemaphore(value: 0)
    private var waited = false

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        base = Int(bitPattern: buffer.baseAddress)
        count = buffer.count
        concurrent = buffer.count >= 4 << 20 && ProcessInfo.processInfo.activeProcessorCount > 1
        if concurrent {
            Thread { [self] in
                valid = JSONParser.isValidUTF8(UnsafeBufferPointer(start: UnsafePointer(bitPattern: base), count: count))
                done.signal()
            }.start()
        } else {
            valid = JSONParser.isValidUTF8(buffer)
        }
    }

    func wait() -> Bool {
        if concurrent && !waited {
            done.wait()
            waited = true
        }
        return valid
    }
}
