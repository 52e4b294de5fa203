/// prices.json's value on the project's byte-level JSON (Foundation's JSONDecoder is slow on
/// Linux): the same bytes JSONEncoder wrote with `.sortedKeys` and `.withoutEscapingSlashes`
/// (compact; keys in byte order; absent optionals left out), and the same leniency reading
/// (unknown members ignored, `null` for an optional, at most `historyLimit` points kept).
import ShopYBase

extension PriceBook: RawStorable {
    public static func decodeStored(_ bytes: ArraySlice<UInt8>) throws(StoredValueError) -> PriceBook {
        let array = Array(bytes)
        return try array.withUnsafeBufferPointer { buffer throws(StoredValueError) in
            var parser = JSONParser(buffer)
            var book = PriceBook()
            var path = ""
            do throws(JSONParseError) {
                try parser.forEachMember { id, _, p throws(JSONParseError) in
                    path = "." + id
                    book.records[id] = try PriceReading.record(&p, path: &path)
                }
                try parser.expectEnd()
            } catch {
                throw StoredValueError(PriceReading.shapeProblem == error ? "does not have the expected shape" + (path.isEmpty ? "" : " at \(path)") : "does not parse: \(error)")
            }
            return book
        }
    }

    public func encodeStored() -> [UInt8] {
        var w = JSONWriter(capacity: records.count * 64)
        w.append("{")
        for (index, id) in records.keys.sorted(by: PriceWriting.byteOrder).enumerated() {
            if index > 0 { w.append(",") }
            w.writeString(id)
            w.append(":")
            PriceWriting.record(records[id]!, to: &w)
        }
        w.append("}")
        return w.bytes
    }
}

/// Writing, member by member in byte order of the keys, as JSONEncoder's `.sortedKeys` does.
enum PriceWriting {
    static func byteOrder(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    static func record(_ r: PriceRecord, to w: inout JSONWriter) {
        var first = true
        func key(_ name: String) {
            w.append(first ? "{\"" : ",\"")
            first = false
            w.append(name)
            w.append("\":")
        }
        if let alert = r.alert { key("alert"); self.alert(alert, to: &w) }
        if let highest = r.highest { key("highest"); point(highest, to: &w) }
        if let lowest = r.lowest { key("lowest"); point(lowest, to: &w) }
        key("points")
        w.append("[")
        for (index, p) in r.points.enumerated() {
            if index > 0 { w.append(",") }
            point(p, to: &w)
        }
        w.append("]")
        if let refreshedAt = r.refreshedAt { key("refreshedAt"); w.writeString(refreshedAt) }
        w.append("}")
    }

    static func point(_ p: PricePoint, to w: inout JSONWriter) {
        w.append("{\"at\":")
        w.writeString(p.at)
        if let price = p.price { w.append(",\"price\":" + String(price)) }
        w.append("}")
    }

    static func alert(_ a: PriceAlert, to w: inout JSONWriter) {
        w.append(a.armed ? "{\"armed\":true," : "{\"armed\":false,")
        switch a.rule {
        case .below(let price): w.append("\"below\":" + String(price))
        case .drop(let percent): w.append("\"drop\":" + String(percent))
        }
        if let firedAt = a.firedAt {
            w.append(",\"firedAt\":")
            w.writeString(firedAt)
        }
        w.append("}")
    }
}

/// Reading, with the checks `PriceRecord`'s and `PriceAlert`'s Codable initializers make.
enum PriceReading {
    /// The error for a value of the wrong shape (the path says where).
    static let shapeProblem = JSONParseError(reason: .unexpected("shape"), offset: -1)

    static func record(_ p: inout JSONParser, path: inout String) throws(JSONParseError) -> PriceRecord {
        var record = PriceRecord()
        let base = path
        try p.forEachMember { key, _, p throws(JSONParseError) in
            path = base + "." + key
            switch key {
            case "points":
                if try isNull(&p) { return }
                var points: [PricePoint] = []
                try elements(&p) { p throws(JSONParseError) in points.append(try point(&p)) }
                if points.count > PriceRecord.historyLimit { points.removeFirst(points.count - PriceRecord.historyLimit) }
                record.points = points
            case "lowest": record.lowest = try isNull(&p) ? nil : try point(&p)
            case "highest": record.highest = try isNull(&p) ? nil : try point(&p)
            case "refreshedAt": record.refreshedAt = try optionalString(&p)
            case "alert": record.alert = try isNull(&p) ? nil : try alert(&p)
            default: break
            }
        }
        path = base
        return record
    }

    static func point(_ p: inout JSONParser) throws(JSONParseError) -> PricePoint {
        var at: String?
        var price: Int?
        try object(&p) { key, p throws(JSONParseError) in
            switch key {
            case "at": at = try string(&p)
            case "price": price = try optionalInt(&p)
            default: break
            }
        }
        guard let at else { throw shapeProblem }
        return PricePoint(at: at, price: price)
    }

    static func alert(_ p: inout JSONParser) throws(JSONParseError) -> PriceAlert {
        var below: Int?, drop: Int?, armed: Bool?, firedAt: String?
        try object(&p) { key, p throws(JSONParseError) in
            switch key {
            case "below": below = try optionalInt(&p)
            case "drop": drop = try optionalInt(&p)
            case "armed": armed = try optionalBool(&p)
            case "firedAt": firedAt = try optionalString(&p)
            default: break
            }
        }
        var alert: PriceAlert
        if let below, below > 0 {
            alert = PriceAlert(rule: .below(below))
        } else if let drop, (1...99).contains(drop) {
            alert = PriceAlert(rule: .drop(percent: drop))
        } else {
            throw shapeProblem
        }
        alert.armed = armed ?? true
        alert.firedAt = firedAt
        return alert
    }

    // MARK: - Pieces

    static func object(_ p: inout JSONParser, _ body: (String, inout JSONParser) throws(JSONParseError) -> Void) throws(JSONParseError) {
        guard p.peekByte() == UInt8(ascii: "{") else { throw shapeProblem }
        try p.forEachMember { key, _, p throws(JSONParseError) in try body(key, &p) }
    }

    static func elements(_ p: inout JSONParser, _ body: (inout JSONParser) throws(JSONParseError) -> Void) throws(JSONParseError) {
        guard p.peekByte() == UInt8(ascii: "[") else { throw shapeProblem }
        try p.forEachElement { _, p throws(JSONParseError) in try body(&p) }
    }

    /// Consumes a `null` and answers true, or answers false and leaves the value.
    static func isNull(_ p: inout JSONParser) throws(JSONParseError) -> Bool {
        guard p.peekByte() == UInt8(ascii: "n") else { return false }
        _ = try p.parseValue()
        return true
    }

    static func string(_ p: inout JSONParser) throws(JSONParseError) -> String {
        guard p.peekByte() == UInt8(ascii: "\"") else { throw shapeProblem }
        return try p.parseString()
    }

    static func optionalString(_ p: inout JSONParser) throws(JSONParseError) -> String? {
        try isNull(&p) ? nil : try string(&p)
    }

    static func optionalBool(_ p: inout JSONParser) throws(JSONParseError) -> Bool? {
        if try isNull(&p) { return nil }
        guard case .bool(let value) = try p.parseValue() else { throw shapeProblem }
        return value
    }

    /// An integer as JSONDecoder reads one: digits, or a number with an integral value (`12.0`,
    /// `1e3`) that fits.
    static func optionalInt(_ p: inout JSONParser) throws(JSONParseError) -> Int? {
        if try isNull(&p) { return nil }
        guard let byte = p.peekByte(), byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39),
              case .number(let text) = try p.parseValue() else { throw shapeProblem }
        if let value = Int(text) { return value }
        guard let double = Double(text), double.rounded() == double, abs(double) < 9.2e18 else { throw shapeProblem }
        return Int(double)
    }
}
