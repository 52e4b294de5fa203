import ShopYBase

/// Reads the files `shopy catalog import` accepts, all or nothing per file:
/// - a Naver answer as the contract returns it (`{"items": [...]}`, in any of its shapes:
///   numbers or strings, with or without `lastBuildDate`/`total`), decoded leniently;
/// - a bare JSON array of items;
/// - JSON lines: one item or one answer per line;
/// - CSV whose header names the contract's fields (`productId` and `title` required; other known
///   fields optional, unknown columns ignored), RFC 4180 quoting.
/// A file that is none of these fails as a whole (`CatalogImportError.unreadable`); an item
/// without a usable productId is skipped with its reason, the rest imported. Every field is
/// bounded as answers from the network are (`boundedForCatalog`).
public enum CatalogImportParsing {
    public enum Format: String, Sendable { case answer, array, jsonLines = "json lines", csv }

    public struct Parsed: Sendable {
        public var format: Format
        public var items: [WireItem]
        public var skipped: [CatalogImportReport.Skip]
        /// Each item's own first-seen date when the file carries one (an export does), else nil.
        public var firstSeen: [String?] = []
    }

    /// The largest file accepted: the import limit of every file and of stdin (a million items
    /// of a typical size fit).
    public static let maxBytes = FileIO.importLimit

    public static func parse(_ bytes: [UInt8], name: String) throws(CatalogImportError) -> Parsed {
        guard bytes.count <= maxBytes else { throw .unreadable(name, "it is larger than \(maxBytes >> 20) MiB") }
        var body = ArraySlice(bytes)
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard body.withUnsafeBufferPointer(JSONParser.isValidUTF8) else { throw .unreadable(name, "it is not UTF-8 text") }
        guard let first = body.first(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            throw .unreadable(name, "it is empty")
        }
        var parsed = Parsed(format: .answer, items: [], skipped: [])
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            if streamed(body, into: &parsed) { return parsed }
            parsed = Parsed(format: .answer, items: [], skipped: [])
            if let whole = try? JSONParser.parse(body) {
                if case .array(let elements) = whole {
                    parsed.format = .array
                    take(elements, into: &parsed, where: "item")
                } else {
                    try takeAnswer(whole, into: &parsed, name: name, line: nil)
                }
                return parsed
            }
            parsed.format = .jsonLines
            var number = 0
            for line in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
                number += 1
                guard line.contains(where: { !($0 == 0x20 || $0 == 0x0D || $0 == 0x09) }) else { continue }
                let value: JSONValue
                do { value = try JSONParser.parse(line) } catch {
                    throw .unreadable(name, "line \(number) is not JSON (\(error)); it is neither one JSON document nor JSON lines")
                }
                if case .object(let object) = value, object["items"] != nil {
                    try takeAnswer(value, into: &parsed, name: name, line: number)
                } else {
                    take([value], into: &parsed, where: "line \(number)")
                }
            }
            return parsed
        }
        parsed.format = .csv
        let rows = try CatalogCSV.rows(body, name: name)
        take(rows, into: &parsed, where: "row")
        return parsed
    }

    private static func takeAnswer(_ value: JSONValue, into parsed: inout Parsed, name: String, line: Int?) throws(CatalogImportError) {
        let at = line.map { "line \($0): " } ?? ""
        guard case .object(let object) = value else { throw .unreadable(name, "\(at)it is \(value.kindName), not an answer or an array of items") }
        guard let items = object["items"] else {
            // One item per line (JSON lines) is taken by the caller; a lone object must be an answer.
            throw .unreadable(name, "\(at)an object without \"items\": not a Naver answer")
        }
        guard case .array(let elements) = items else { throw .unreadable(name, "\(at)\"items\" is \(items.kindName), not an array") }
        take(elements, into: &parsed, where: line.map { "line \($0) item" } ?? "item")
    }

    /// A bare array, or an object whose one "items" member is an array, read one element at a
    /// time (no tree of the whole file). False when the body is anything else, or does not parse:
    /// the caller then reads it the general way (and reports what is wrong).
    private static func streamed(_ body: ArraySlice<UInt8>, into parsed: inout Parsed) -> Bool {
        body.withUnsafeBufferPointer { buffer -> Bool in
            var parser = JSONParser(buffer)
            parser.validatesUTF8 = false  // checked above
            var i = 0
            func elements(_ parser: inout JSONParser) throws(JSONParseError) {
                try parser.forEachElement { _, parser throws(JSONParseError) in
                    let element = try parser.parseValue()
                    takeOne(element, index: i, place: "item \(i + 1)", into: &parsed)
                    i += 1
                }
            }
            do throws(JSONParseError) {
                guard let first = parser.peekByte() else { return false }
                if first == UInt8(ascii: "[") {
                    parsed.format = .array
                    try elements(&parser)
                } else {
                    var sawItems = false, usable = true
                    try parser.forEachMemberRaw { key, parser throws(JSONParseError) in
                        guard UnsafeBufferPointer(rebasing: buffer[key]).elementsEqual("items".utf8) else { return }
                        guard !sawItems, parser.peekByte() == UInt8(ascii: "[") else { usable = false; return }
                        sawItems = true
                        try elements(&parser)
                    }
                    guard sawItems && usable else { return false }
                }
                try parser.expectEnd()
                return true
            } catch {
                return false
            }
        }
    }

    private static func take(_ elements: [JSONValue], into parsed: inout Parsed, where label: String) {
        for (i, element) in elements.enumerated() {
            let place = elements.count == 1 && label.hasPrefix("line") && !label.hasSuffix("item") ? label : "\(label) \(i + 1)"
            takeOne(element, index: i, place: place, into: &parsed)
        }
    }

    static func takeOne(_ element: JSONValue, index i: Int, place: String, into parsed: inout Parsed) {
        do {
            var item = try WireItem(json: element, index: i)
            guard let id = ProductID.usable(item.productId) else {
                parsed.skipped.append(.init(place: place, productId: item.productId, reason: "its productId is not \(ProductID.described)"))
                return
            }
            item.productId = id
            item.title = CatalogService.unbolded(item.title)  // the API bolds the query's terms
            parsed.items.append(item.boundedForCatalog)
            parsed.firstSeen.append(element["firstSeen"]?.stringValue.flatMap(CatalogRecord.validTimestamp))
        } catch {
            parsed.skipped.append(.init(place: place, productId: nil, reason: error.description.replacingFirst("item \(i + 1) ", with: "it ")))
        }
    }
}

extension String {
    fileprivate func replacingFirst(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}

/// What went wrong with an import as a whole.
public enum CatalogImportError: Error, Sendable, CustomStringConvertible {
    case unreadable(String, String)

    public var description: String {
        switch self {
        case .unreadable(let name, let problem): return "cannot import \(name): \(problem); nothing was imported from it"
        }
    }
}
