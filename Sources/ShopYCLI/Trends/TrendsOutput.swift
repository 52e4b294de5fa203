import Foundation
import ShopYCore
import ShopYBase

/// The machine formats of a trends result: json (the schema docs/json.md documents), jsonl (one
/// series a line), tsv and csv (one row per series and period).
public enum TrendsOutput {
    /// A ratio rounded to 5 decimals, written without trailing zeros (`100`, `84.01252`).
    public static func number(_ value: Double) -> JSONValue {
        .number(decimal(value))
    }

    static func decimal(_ value: Double) -> String {
        var text = String(format: "%.5f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    public static func json(_ result: TrendsResult) -> JSONValue {
        let c = result.comparison
        var o = JSONObject()
        o.appendUnchecked("kind", .string(c.kind.rawValue))
        if let category = c.category {
            o.appendUnchecked("category", .object(JSONObject(["code": .string(category.code),
                                                              "path": .array(category.path.map(JSONValue.string))])))
        } else {
            o.appendUnchecked("category", .null)
        }
        o.appendUnchecked("startDate", .string(c.range.start.description))
        o.appendUnchecked("endDate", .string(c.range.end.description))
        o.appendUnchecked("timeUnit", .string(c.range.unit.rawValue))
        o.appendUnchecked("filters", .object(JSONObject([
            "device": .string(orNull: c.filters.device?.rawValue),
            "gender": .string(orNull: c.filters.gender?.rawValue),
            "ages": .array(c.filters.ages.map { .string($0.rawValue) }),
        ])))
        o.appendUnchecked("by", .string(orNull: c.by?.rawValue))
        o.appendUnchecked("requests", .int(result.requests))
        o.appendUnchecked("series", .array(result.rows.enumerated().map { series($0.element, rank: $0.offset + 1, result: result) }))
        return .object(o)
    }

    /// One series: rank, name, code or keyword, group, points, latest, previous, change, peak.
    public static func series(_ row: TrendsResult.Row, rank: Int, result: TrendsResult) -> JSONValue {
        var o = JSONObject()
        o.appendUnchecked("rank", .int(rank))
        o.appendUnchecked("name", .string(row.series.name))
        if result.comparison.kind == .categories {
            o.appendUnchecked("code", .string(row.series.code ?? ""))
        } else {
            o.appendUnchecked("keyword", .string(row.series.keyword ?? row.series.name))
        }
        o.appendUnchecked("group", .string(orNull: row.group))
        o.appendUnchecked("points", .array(zip(result.periods, row.values).map { period, value in
            .object(JSONObject(["period": .string(period.description), "ratio": number(value)]))
        }))
        o.appendUnchecked("latest", number(row.latest))
        o.appendUnchecked("previous", row.previous.map(number) ?? .null)
        o.appendUnchecked("change", row.change.map(number) ?? .null)
        if row.values.isEmpty {
            o.appendUnchecked("peak", .null)
        } else {
            let peak = row.peakIndex
            o.appendUnchecked("peak", .object(JSONObject(["period": .string(result.periods[peak].description), "ratio": number(row.values[peak])])))
        }
        return .object(o)
    }

    public static func jsonl(_ result: TrendsResult) -> String {
        var out: [UInt8] = []
        for (i, row) in result.rows.enumerated() {
            out += JSONWriter.serialize(series(row, rank: i + 1, result: result))
            out.append(0x0A)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// rank, name, code or keyword, group, period, ratio.
    static func cells(_ result: TrendsResult) -> [[String]] {
        var rows: [[String]] = []
        for (i, row) in result.rows.enumerated() {
            let id = result.comparison.kind == .categories ? row.series.code ?? "" : row.series.keyword ?? row.series.name
            for (period, value) in zip(result.periods, row.values) {
                rows.append([String(i + 1), Sanitizer.clean(row.series.name), Sanitizer.clean(id), row.group ?? "", period.description, decimal(value)])
            }
        }
        return rows
    }

    /// No header, tab-separated (tabs and newlines in names are made spaces by the sanitizer).
    public static func tsv(_ result: TrendsResult) -> String {
        cells(result).map { $0.map { $0.replacingOccurrences(of: "\t", with: " ") }.joined(separator: "\t") + "\n" }.joined()
    }

    /// RFC 4180 with a header row.
    public static func csv(_ result: TrendsResult) -> String {
        let id = result.comparison.kind == .categories ? "code" : "keyword"
        var out = ["rank", "name", id, "group", "period", "ratio"].joined(separator: ",") + "\r\n"
        for row in cells(result) { out += row.map(Render.csvField).joined(separator: ",") + "\r\n" }
        return out
    }
}
