import ShopYCore
import ShopYBase

/// `shopy likes alert`: the change, as a notice (an action's confirmation: `--quiet` leaves it out).
public struct LikesAlertPresenter: Presenter {
    public func present(_ line: TerminalText, context: Context) -> ExitCode {
        context.diagnostics.notice(line)
        return .ok
    }
}

/// `shopy likes alerts`: the alerts in a table or JSON.
public struct LikesAlertsPresenter: Presenter {
    public var format: OutputFormat?

    public func present(_ rows: [LikesAlertsCommand.Row], context: Context) -> ExitCode {
        let io = context.io
        switch format.resolved(for: io) {
        case .json, .jsonl:
            let items: [JSONValue] = rows.map { row in
                let (like, record, alert) = (row.like, row.record, row.alert)
                var o = JSONObject()
                o.appendUnchecked("productId", .string(like.product.productId))
                o.appendUnchecked("title", .string(like.product.title))
                o.appendUnchecked("alert", .string(alert.description))
                switch alert.rule {
                case .below(let price): o.appendUnchecked("below", .int(price))
                case .drop(let percent): o.appendUnchecked("drop", .int(percent))
                }
                o.appendUnchecked("line", .int(orNull: alert.line(likedPrice: like.likedPrice)))
                o.appendUnchecked("likedPrice", .int(orNull: like.likedPrice))
                o.appendUnchecked("price", .int(orNull: record.latest ?? like.product.price))
                o.appendUnchecked("armed", .bool(alert.armed))
                o.appendUnchecked("firedAt", .string(orNull: alert.firedAt))
                return .object(o)
            }
            var o = JSONObject()
            o.appendUnchecked("count", .int(items.count))
            o.appendUnchecked("alerts", .array(items))
            io.writeJSON(.object(o))
        case .table, .tsv, .csv:
            if rows.isEmpty {
                io.stdout.line("no alerts: 'shopy likes alert ID --below PRICE' or '--drop PERCENT' sets one")
                return .ok
            }
            for row in rows {
                let (like, record, alert) = (row.like, row.record, row.alert)
                let state = alert.armed ? "armed" : "fired " + (alert.firedAt ?? "")
                let line: TerminalText = "\(like.product.productId) \(alert.description) · now \(Money.won(record.latest ?? like.product.price)) · \(state) · \(like.product.title)"
                io.stdout.line(line.truncated(toWidth: io.columns))
            }
        }
        return .ok
    }
}
