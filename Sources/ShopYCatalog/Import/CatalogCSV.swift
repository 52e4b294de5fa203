import ShopYBase

/// CSV with the contract's field names as its header (RFC 4180: quoted fields may hold commas,
/// quotes doubled, line breaks), each row turned into the item object it names.
enum CatalogCSV {
    static let fields = ["title", "link", "image", "lprice", "hprice", "mallName", "productId", "productType",
                         "brand", "maker", "category1", "category2", "category3", "category4"]

    static func rows(_ body: ArraySlice<UInt8>, name: String) throws(CatalogImportError) -> [JSONValue] {
        let records = try split(body, name: name)
        guard let header = records.first else { throw .unreadable(name, "it is empty") }
        let names = header.map { $0.trimmingASCIIWhitespace() }
        guard names.contains("productId"), names.contains("title") else {
            throw .unreadable(name, "it is not JSON, and as CSV its header has no productId and title columns (the contract's field names)")
        }
        var rows: [JSONValue] = []
        for (n, record) in records.dropFirst().enumerated() {
            if record.count == 1 && record[0].isEmpty { continue }
            guard record.count == names.count else {
                throw .unreadable(name, "row \(n + 1) has \(record.count) fields, the header \(names.count)")
            }
            var object = JSONObject()
            for (key, value) in zip(names, record) where fields.contains(key) && object[key] == nil {
                object.appendUnchecked(key, .string(formulaUnguarded(value)))
            }
            rows.append(.object(object))
        }
        return rows
    }

    /// A cell that shopy's CSV output (or a spreadsheet) guarded against being read as a formula,
    /// `'=…`, `'+…`, `'-…`, `'@…`, without the guard.
    static func formulaUnguarded(_ value: String) -> String {
        let scalars = value.unicodeScalars
        guard scalars.count >= 2, scalars.first == "'", let second = scalars.dropFirst().first, "=+-@".unicodeScalars.contains(second) else { return value }
        return String(value.dropFirst())
    }

    private static func split(_ body: ArraySlice<UInt8>, name: String) throws(CatalogImportError) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var quoted = false, wasQuoted = false
        var i = body.startIndex
        while i < body.endIndex {
            let b = body[i]
            if quoted {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < body.endIndex && body[i + 1] == UInt8(ascii: "\"") { field.append(b); i += 1 } else { quoted = false }
                } else {
                    field.append(b)
                }
            } else if b == UInt8(ascii: "\"") {
                guard field.isEmpty && !wasQuoted else { throw .unreadable(name, "a quote inside an unquoted CSV field (record \(records.count + 1))") }
                quoted = true
                wasQuoted = true
            } else if b == UInt8(ascii: ",") {
                record.append(String(decoding: field, as: UTF8.self)); field = []; wasQuoted = false
            } else if b == 0x0A || b == 0x0D {
                if b == 0x0D && i + 1 < body.endIndex && body[i + 1] == 0x0A { i += 1 }
                record.append(String(decoding: field, as: UTF8.self)); field = []; wasQuoted = false
                records.append(record); record = []
            } else {
                guard !wasQuoted else { throw .unreadable(name, "text after a closing quote in CSV (record \(records.count + 1))") }
                field.append(b)
            }
            i += 1
        }
        guard !quoted else { throw .unreadable(name, "a quoted CSV field is never closed") }
        if !field.isEmpty || !record.isEmpty || wasQuoted {
            record.append(String(decoding: field, as: UTF8.self))
            records.append(record)
        }
        return records
    }
}
