import Foundation
import ShopYBase

/// `likes.journal`: the changes made since the snapshot (`likes.json`), JSON lines, appended.
///
///     {"journal":1,"snapshot":"GENERATION"}
///     {"len":N,"crc":"8 hex digits","changes":[{"op":"like","like":{…}},{"op":"unlike","productId":"…"}]}
///
/// The first line names the snapshot the journal continues; a journal naming another snapshot
/// was folded into it by a compaction that was stopped before it could remove the journal, and
/// is ignored. Each later line is one transaction (all of its changes or none): `len` is the byte
/// length of the `changes` value and `crc` its CRC-32, so a line checks itself. A last line
/// without its newline is a torn tail (a crash mid-append: the transaction was never
/// acknowledged) and is dropped; any complete line that does not check is damage.
package enum LikesJournal {
    static let version = 1

    package struct Contents {
        /// The snapshot this journal continues (nil: the header itself was torn).
        package var generation: String?
        /// The changes of every complete line, in order.
        package var changes: [LikeChange] = []
        /// Complete lines (the header included).
        package var lines = 0
        /// Bytes of the complete lines: where a torn tail starts.
        var validLength = 0
        /// Bytes after the last newline.
        package var tornBytes = 0
        /// Bytes of the records (what counts towards a compaction).
        var totalLength = 0
    }

    static func header(generation: String) -> [UInt8] {
        Array("{\"journal\":\(version),\"snapshot\":\"\(generation)\"}\n".utf8)
    }

    /// One transaction's line.
    static func line(_ changes: [LikeChange]) -> [UInt8] {
        var payload: [UInt8] = [UInt8(ascii: "[")]
        for (i, change) in changes.enumerated() {
            if i > 0 { payload.append(UInt8(ascii: ",")) }
            switch change {
            case .add(let element):
                payload += Array("{\"op\":\"like\",\"like\":".utf8)
                payload += element.bytes
                payload.append(UInt8(ascii: "}"))
            case .remove(let id):
                var writer = JSONWriter()
                writer.append("{\"op\":\"unlike\",\"productId\":")
                writer.writeString(id)
                writer.append("}")
                payload += writer.bytes
            }
        }
        payload.append(UInt8(ascii: "]"))
        var line = Array("{\"len\":\(payload.count),\"crc\":\"\(CRC32.hex(CRC32.checksum(payload[...])))\",\"changes\":".utf8)
        line += payload
        line += Array("}\n".utf8)
        return line
    }

    /// Reads a whole journal. A damaged complete line is thrown (with its line number); a torn
    /// tail is reported in the contents.
    package static func parse(_ bytes: [UInt8], path: String) throws(StoreError) -> Contents {
        var contents = Contents()
        contents.totalLength = bytes.count
        var start = 0
        var lineNumber = 0
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: 0x0A) else {
                contents.tornBytes = bytes.count - start
                break
            }
            lineNumber += 1
            let line = bytes[start..<end]
            if lineNumber == 1 {
                contents.generation = try parseHeader(line, path: path)
            } else {
                do throws(StoredValueError) {
                    contents.changes += try parseRecord(line)
                } catch {
                    throw .damaged(path: path, problem: "line \(lineNumber) \(error.problem)")
                }
            }
            start = end + 1
            contents.lines = lineNumber
            contents.validLength = start
        }
        return contents
    }

    private static func parseHeader(_ line: ArraySlice<UInt8>, path: String) throws(StoreError) -> String {
        guard let value = try? JSONParser.parse(line), case .object(let object) = value else {
            throw .damaged(path: path, problem: "its first line is not a journal header")
        }
        guard let version = object["journal"]?.intValue, version >= 1 else {
            throw .damaged(path: path, problem: "its first line has no valid \"journal\" version")
        }
        if version > Self.version { throw .newerSchema(path: path, found: version, known: Self.version) }
        guard case .string(let generation)? = object["snapshot"], !generation.isEmpty else {
            throw .damaged(path: path, problem: "its first line names no snapshot")
        }
        return generation
    }

    private static let lenPrefix = Array("{\"len\":".utf8)
    private static let crcPrefix = Array(",\"crc\":\"".utf8)
    private static let changesPrefix = Array("\",\"changes\":".utf8)
    private static let likePrefix = Array("{\"op\":\"like\",\"like\":".utf8)

    /// Checks a record line's length and checksum, then its changes.
    static func parseRecord(_ line: ArraySlice<UInt8>) throws(StoredValueError) -> [LikeChange] {
        var i = line.startIndex
        func take(_ expected: [UInt8]) -> Bool {
            guard line.count - (i - line.startIndex) >= expected.count, line[i..<(i + expected.count)].elementsEqual(expected) else { return false }
            i += expected.count
            return true
        }
        guard take(lenPrefix) else { throw StoredValueError("is not a journal record") }
        var length = 0
        let digitsStart = i
        while i < line.endIndex, line[i] >= 0x30, line[i] <= 0x39, i - digitsStart < 12 {
            length = length * 10 + Int(line[i] - 0x30)
            i += 1
        }
        guard i > digitsStart, take(crcPrefix), line.endIndex - i >= 8 else { throw StoredValueError("has no valid length and checksum") }
        let crcText = String(decoding: line[i..<(i + 8)], as: UTF8.self)
        i += 8
        guard let crc = UInt32(crcText, radix: 16), take(changesPrefix) else { throw StoredValueError("has no valid checksum") }
        guard line.endIndex - i == length + 1, line[line.endIndex - 1] == UInt8(ascii: "}") else {
            throw StoredValueError("does not have the length it records (\(length) bytes of changes)")
        }
        let payload = line[i..<(i + length)]
        guard CRC32.checksum(payload) == crc else { throw StoredValueError("does not match its checksum") }
        guard payload.withUnsafeBufferPointer(JSONParser.isValidUTF8) else { throw StoredValueError("is not valid UTF-8") }
        return try parseChanges(payload)
    }

    private static func parseChanges(_ payload: ArraySlice<UInt8>) throws(StoredValueError) -> [LikeChange] {
        var ranges: [Range<Int>] = []
        let outcome: JSONParseError? = payload.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            parser.validatesUTF8 = false
            do throws(JSONParseError) {
                guard parser.peekByte() == UInt8(ascii: "[") else { return JSONParseError(reason: .unexpected("not a list"), offset: 0) }
                try parser.forEachElement { _, parser throws(JSONParseError) in ranges.append(try parser.skipValue()) }
                try parser.expectEnd()
                return nil
            } catch {
                return error
            }
        }
        if let outcome { throw StoredValueError("has no valid list of changes: \(outcome)") }
        var changes: [LikeChange] = []
        for (n, range) in ranges.enumerated() {
            let bytes = payload[(payload.startIndex + range.lowerBound)..<(payload.startIndex + range.upperBound)]
            do throws(StoredValueError) {
                if bytes.starts(with: likePrefix), bytes.last == UInt8(ascii: "}") {
                    changes.append(.add(try LikeCollection.element(from: bytes.dropFirst(likePrefix.count).dropLast())))
                } else {
                    guard let value = try? JSONParser.parse(bytes), case .object(let object) = value,
                          object["op"]?.stringValue == "unlike", case .string(let id)? = object["productId"], !id.isEmpty else {
                        throw StoredValueError("is neither a like nor an unlike")
                    }
                    guard ProductID.usable(id) == id else { throw StoredValueError("unlikes a \"productId\" that is not \(ProductID.described)") }
                    changes.append(.remove(id))
                }
            } catch {
                throw StoredValueError("change \(n + 1) \(error.problem)")
            }
        }
        if let twice = LikeCollection.firstDuplicate(changes.compactMap { if case .add(let e) = $0 { return e.id } else { return nil } }) {
            throw StoredValueError("likes productId \(twice.id) twice (changes \(twice.first + 1) and \(twice.second + 1) of its likes)")
        }
        return changes
    }
}
