import ShopYCore
import ShopYBase
/// Output formats shared by every listing (search, likes, popular, rank).
public enum OutputFormat: String, CaseIterable, Sendable {
    case table, tsv, csv, json, jsonl
    // The default (table on a terminal, TSV otherwise) is `Optional.resolved(for:)` in Presentation.swift.
}

/// One row of a listing.
public struct ListedItem: Equatable, Sendable {
    /// The rank number printed (and usable by `shopy like ROW`).
    public var rank: Int
    public var product: Product
    /// Nil when the listing does not say (then no ♥ column and no "liked" key).
    public var liked: Bool?
    /// Extra JSON members for this listing (e.g. likedAt); appended after the standard keys.
    public var extra: [(String, JSONValue)]
    /// The row as printed when it is not the rank itself (`2.3`: section 2, rank 3 of popular).
    public var row: String?

    public init(rank: Int, product: Product, liked: Bool? = nil, extra: [(String, JSONValue)] = [], row: String? = nil) {
        self.rank = rank
        self.product = product
        self.liked = liked
        self.extra = extra
        self.row = row
    }

    /// What the rank column shows, and what `shopy like` accepts.
    public var rowText: String { row ?? String(rank) }

    public static func == (a: ListedItem, b: ListedItem) -> Bool {
        a.rank == b.rank && a.row == b.row && a.product == b.product && a.liked == b.liked && a.extra.map(\.0) == b.extra.map(\.0)
            && zip(a.extra, b.extra).allSatisfy { $0.1 == $1.1 }
    }
}

/// The JSON form of an item: the schema docs/json.md documents.
public enum ItemJSON {
    public static func object(_ item: ListedItem) -> JSONValue {
        var o = JSONObject()
        o.appendUnchecked("rank", .int(item.rank))
        if let row = item.row { o.appendUnchecked("row", .string(row)) }
        appendProduct(item.product, to: &o)
        SourceColumns.appendJSON(item.product, to: &o)
        if let liked = item.liked { o.appendUnchecked("liked", .bool(liked)) }
        for (key, value) in item.extra { o.appendUnchecked(key, value) }
        return .object(o)
    }

    /// The product's members in the schema's order (`ProductJSON`, shared with the stored likes).
    public static func appendProduct(_ p: Product, to o: inout JSONObject) {
        ProductJSON.append(p, to: &o)
    }
}

/// Renders rows in the plain formats; JSON envelopes are built by each command.
public enum Render {
    /// TSV without a header: exactly rank, productId, price, mall, title, link (scripts cut by
    /// position, so the columns never change).
    public static func tsv(_ items: [ListedItem]) -> String {
        var out = ""
        for item in items {
            let p = item.product
            let cells = [item.rowText, cell(p.productId), p.price.map(String.init) ?? "", cell(p.mall ?? ""), cell(p.title), cell(p.link ?? "")]
            out += cells.joined(separator: "\t") + "\n"
        }
        return out
    }

    public static let csvHeader = ["rank", "productId", "title", "price", "highPrice", "mall", "brand", "maker", "categories", "productType", "link", "image"]

    /// RFC 4180: a header row, CRLF line ends, fields quoted when they need it.
    public static func csv(_ items: [ListedItem], header: Bool = true) -> String {
        let withLiked = items.contains { $0.liked != nil }
        var out = ""
        let withSource = items.contains { $0.product.source != nil }
        if header { out += (csvHeader + (withLiked ? ["liked"] : []) + (withSource ? ["source"] : [])).joined(separator: ",") + "\r\n" }
        for item in items {
            let p = item.product
            // Text from the network (title, mall, brand, maker, categories, links) is cleaned, then
            // made inert for spreadsheets (after: an invisible character cleaned away could
            // uncover a formula); the numbers and ids shopy writes itself are only cleaned.
            func text(_ value: String) -> String { csvText(cell(value)) }
            var fields = [cell(item.rowText), cell(p.productId), text(p.title), p.price.map(String.init) ?? "", p.highPrice.map(String.init) ?? "",
                          text(p.mall ?? ""), text(p.brand ?? ""), text(p.maker ?? ""), text(p.categories.joined(separator: " > ")),
                          p.productType.map(String.init) ?? "", text(p.link ?? ""), text(p.image ?? "")]
            if withLiked { fields.append(item.liked == true ? "true" : "false") }
            if withSource { fields.append(item.product.source?.rawValue ?? "") }
            out += fields.map(csvField).joined(separator: ",") + "\r\n"
        }
        return out
    }

    /// The item-per-line formats, which every listing writes the same way; nil for table and
    /// json, whose layout is the listing's own.
    public static func lines(_ items: [ListedItem], format: OutputFormat) -> String? {
        switch format {
        case .tsv: return tsv(items)
        case .csv: return csv(items)
        case .jsonl: return jsonl(items)
        case .table, .json: return nil
        }
    }

    /// One compact JSON object a line.
    public static func jsonl(_ items: [ListedItem]) -> String {
        var out: [UInt8] = []
        for item in items {
            out += JSONWriter.serialize(ItemJSON.object(item))
            out.append(0x0A)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Network text made safe for a terminal or a cell.
    @inline(__always)
    static func cell(_ text: String) -> String { Sanitizer.clean(text) }

    /// Cleaned text (`Sanitizer.clean` first) in a CSV cell: one that a spreadsheet would read
    /// as a formula (it begins with `=`, `+`, `-` or `@`) begins with `'` instead, as OWASP
    /// advises against CSV injection. `catalog import` reads such a cell back without it.
    public static func csvText(_ text: String) -> String {
        guard let first = text.unicodeScalars.first, formulaStarts.contains(first) else { return text }
        return "'" + text
    }

    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@"]

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || text.first == " " || text.last == " " else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    // MARK: - Table

    /// The width-aware table: rank, [♥], price, mall, title; every line fits in `columns`.
    /// With `showID`, a productId column follows the rank (for listings whose rows are not
    /// remembered, like `shopy likes`). Without `showRank` there is no row number at all: a
    /// listing whose rows `like`/`unlike ROW` do not take must not print numbers that look like them.
    public static func table(_ items: [ListedItem], columns: Int, color: Bool, showID: Bool = false, showRank: Bool = true) -> [String] {
        guard !items.isEmpty else { return [] }
        let showLiked = items.contains { $0.liked != nil }
        let sources = items.map { $0.product.source?.rawValue ?? "" }
        let showSource = SourceColumns.showsSource(items)
        let sourceWidth = showSource ? max(6, sources.map(\.count).max() ?? 6) : 0
        let ranks = items.map(\.rowText)
        let ids = items.map { cell($0.product.productId) }
        let idWidth = showID ? max(2, ids.map { DisplayWidth.of($0) }.max() ?? 2) : 0
        let prices = items.map { Money.won($0.product.price) }
        let malls = items.map { cell($0.product.mall ?? "-") }
        let titles = items.map { cell($0.product.title) }
        let rankWidth = showRank ? max(1, ranks.map(\.count).max() ?? 1) : 0
        let priceWidth = max(5, prices.map { DisplayWidth.of($0) }.max() ?? 5)
        var mallWidth = min(16, max(4, malls.map { DisplayWidth.of($0) }.max() ?? 4))
        let likedWidth = showLiked ? 1 : 0
        let gap = 2
        var fixed = (showRank ? rankWidth + gap : 0) + (showLiked ? likedWidth + gap : 0) + (showID ? idWidth + gap : 0) + priceWidth + gap
            + (showSource ? sourceWidth + gap : 0)
        var showMall = true
        // The title keeps at least 12 columns; the mall column goes first when space is short.
        if columns - fixed - mallWidth - gap < 12 {
            mallWidth = max(4, columns - fixed - gap - 12)
            if columns - fixed - mallWidth - gap < 12 { showMall = false }
        }
        if showMall { fixed += mallWidth + gap }
        // Too narrow for every column: plain lines cut to the width (colour codes would be cut too).
        let squeezed = columns - fixed < 1
        let titleWidth = max(1, columns - fixed)
        let color = color && !squeezed

        func line(_ rank: String, _ liked: String, _ id: String, _ source: String, _ price: String, _ mall: String, _ title: String, header: Bool) -> String {
            var parts: [String] = []
            if showRank { parts.append(Style.dim.apply(DisplayWidth.pad(rank, toWidth: rankWidth, alignRight: true), enabled: color && !header)) }
            if showLiked { parts.append(Style.red.apply(DisplayWidth.pad(liked, toWidth: likedWidth), enabled: color)) }
            if showID { parts.append(DisplayWidth.pad(id, toWidth: idWidth)) }
            if showSource { parts.append(Style.dim.apply(DisplayWidth.pad(source, toWidth: sourceWidth), enabled: color && !header)) }
            parts.append(Style.green.apply(DisplayWidth.pad(price, toWidth: priceWidth, alignRight: true), enabled: color && !header))
            if showMall { parts.append(Style.cyan.apply(DisplayWidth.pad(mall, toWidth: mallWidth), enabled: color && !header)) }
            parts.append(DisplayWidth.truncate(title, toWidth: titleWidth))
            var text = parts.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            if squeezed { text = DisplayWidth.truncate(text, toWidth: columns) }
            return header ? Style.bold.apply(text, enabled: color) : text
        }

        var lines = [line("#", showLiked ? "♥" : "", "ID", "SOURCE", "PRICE", "MALL", "TITLE", header: true)]
        for (i, item) in items.enumerated() {
            lines.append(line(ranks[i], item.liked == true ? "♥" : "", ids[i], sources[i], prices[i], malls[i], titles[i], header: false))
        }
        return lines
    }
}
