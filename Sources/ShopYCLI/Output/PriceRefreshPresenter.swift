import Foundation
import ShopYCore
import ShopYBase

/// `shopy likes refresh`'s report: one line a like, then the alerts that fired (table, TSV,
/// CSV), or one JSON document (JSON, JSONL: one line).
public struct PriceRefreshPresenter: Presenter {
    public var format: OutputFormat?

    public func present(_ refreshed: LikesRefreshCommand.Refreshed, context: Context) -> ExitCode {
        PriceReport.render(refreshed.results, fired: refreshed.fired, sources: refreshed.sources, requests: refreshed.requests,
                           format: format.resolved(for: context.io), context: context)
        return PriceReport.exitCode(refreshed.results)
    }
}

enum PriceReport {
    /// The exit code of a refresh: 0 unless some like got `error`, then the first error's class.
    static func exitCode(_ results: [PriceRefresh.Result]) -> ExitCode {
        guard let error = results.first(where: { $0.outcome == .error })?.error else { return .ok }
        return ExitCode(for: error)
    }

    static func message(_ error: (any Error)?) -> String {
        guard let error else { return "" }
        if let error = error as? ShopyError { return error.message }
        return String(describing: error)
    }

    static func json(_ result: PriceRefresh.Result) -> JSONValue {
        var o = JSONObject()
        o.appendUnchecked("productId", .string(result.like.product.productId))
        o.appendUnchecked("title", .string(result.found?.title ?? result.like.product.title))
        o.appendUnchecked("outcome", .string(result.outcome.rawValue))
        o.appendUnchecked("price", .int(orNull: result.found?.price ?? result.previous))
        o.appendUnchecked("previous", .int(orNull: result.previous))
        o.appendUnchecked("likedPrice", .int(orNull: result.like.likedPrice))
        o.appendUnchecked("rank", .int(orNull: result.rank))
        o.appendUnchecked("requests", .int(result.requests))
        o.appendUnchecked("error", .string(orNull: result.outcome == .error ? message(result.error) : nil))
        if result.outcome == .untracked { o.appendUnchecked("reason", .string(orNull: result.reason)) }
        return .object(o)
    }

    static func json(_ fired: PriceRefresh.Fired) -> JSONValue {
        var o = JSONObject()
        o.appendUnchecked("productId", .string(fired.like.product.productId))
        o.appendUnchecked("title", .string(fired.like.product.title))
        o.appendUnchecked("alert", .string(fired.alert.description))
        o.appendUnchecked("price", .int(fired.price))
        o.appendUnchecked("likedPrice", .int(orNull: fired.like.likedPrice))
        o.appendUnchecked("at", .string(fired.at))
        return .object(o)
    }

    /// `sources`: those asked (none when every like is Coupang's); the catalog's note only when
    /// the catalog refreshed some.
    static func render(_ results: [PriceRefresh.Result], fired: [PriceRefresh.Fired], sources: [SourceKind], requests: Int,
                       format: OutputFormat, context: Context) {
        let io = context.io
        let catalog = sources.contains(.catalog)
        let note = "the offline catalog is a recording: its prices never change (set NAVER_CLIENT_ID and NAVER_CLIENT_SECRET to refresh from Naver)"
        switch format {
        case .json, .jsonl:
            var o = JSONObject()
            o.appendUnchecked("count", .int(results.count))
            // One source's name ("naver", "catalog", "11st"), a comma list, or null: none asked.
            o.appendUnchecked("source", sources.isEmpty ? .null : .string(sources.map(\.rawValue).joined(separator: ",")))
            o.appendUnchecked("requests", .int(requests))
            o.appendUnchecked("items", .array(results.map(json)))
            o.appendUnchecked("alerts", .array(fired.map(json)))
            if catalog { o.appendUnchecked("note", .string(note)) }
            if format == .json { io.writeJSON(.object(o)) } else { io.stdout.write(bytes: JSONWriter.serialize(.object(o)) + [0x0A]) }
        case .table, .tsv, .csv:
            for result in results {
                let p = result.found ?? result.like.product
                let price: String
                switch result.outcome {
                case .down, .up, .same: price = Money.won(result.found?.price ?? result.previous)
                case .gone: price = ProductID.namespace(of: p.productId) == .elevenst ? "11번가 has no product by this code now" : "not in the top results"
                case .error: price = message(result.error)
                case .untracked: price = result.reason ?? ""
                }
                let change = PriceView.changeText(price: result.found?.price, liked: result.like.likedPrice)
                let line: TerminalText = "\(result.outcome.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)) \(p.productId) \(price)\(change.isEmpty ? "" : " " + change) · \(p.title)"
                io.stdout.line(line.truncated(toWidth: io.columns))
            }
            var counts: [String] = []
            for outcome in [PriceRefresh.Outcome.same, .down, .up, .gone, .error, .untracked] {
                let n = results.filter { $0.outcome == outcome }.count
                if n > 0 { counts.append("\(n) \(outcome.rawValue)") }
            }
            let footer = "\(Money.grouped(results.count)) like\(results.count == 1 ? "" : "s") refreshed" + (counts.isEmpty ? "" : ": " + counts.joined(separator: ", "))
                + (sources == [.catalog] && requests == 0 ? " · offline catalog" : " · \(requests) request\(requests == 1 ? "" : "s") sent")
            io.stdout.line(Style.dim.apply(DisplayWidth.truncate(footer, toWidth: io.columns), enabled: io.useColor))
            if catalog { context.diagnostics.notice("\(note)") }
            for alert in fired {
                let line: TerminalText = "alert: \(alert.like.product.productId) \(alert.alert.description) · now \(Money.won(alert.price)) · \(alert.like.product.title)"
                io.stdout.line(line.truncated(toWidth: io.columns).styled(.bold, enabled: io.useColor))
            }
        }
    }
}
