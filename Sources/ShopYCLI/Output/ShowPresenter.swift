import ShopYCore
import ShopYBase

/// `shopy show`: the card (bold title with colour), the picture beside or above it; the item
/// as JSON with `--json`. A picture that cannot be drawn is never an error: the card has the
/// link, `--verbose` says why, and a missing library adds one hint line naming its package.
public struct ShowPresenter: Presenter {
    let format: ShowCommand.Format

    public func present(_ shown: ShowCommand.Shown, context: Context) -> ExitCode {
        let io = context.io
        if format == .json {
            io.writeJSON(json(shown))
            return .ok
        }
        if let failure = shown.pictureFailure {
            switch failure {
            case .off: context.trace("picture: none: \(failure.reason)")
            default: context.trace("picture of \(URLRedaction.redact(shown.card.product.image ?? "")): not drawn: \(failure.reason)")
            }
            if let hint = failure.hint { context.diagnostics.hint(TerminalText(sanitizing: hint)) }
        }
        let lines = shown.card.lines(width: max(20, shown.width - 1)).map { text, style -> String in
            io.useColor && style.bold ? Style.bold.apply(text, enabled: true) : text
        }
        guard let picture = shown.picture else {
            for line in lines { io.stdout.line(line) }
            return .ok
        }
        if picture.drawing == .symbols && shown.width < io.columns {
            // Beside: each picture row, then the card's line of that row.
            let rows = picture.symbolRows
            let blank = String(repeating: " ", count: picture.columns)
            for i in 0..<max(rows.count, lines.count) {
                var out: [UInt8] = i < rows.count ? rows[i] + Array("\u{1B}[0m".utf8) : Array(blank.utf8)
                if i < lines.count { out += Array((String(repeating: " ", count: ShowLayout.gap) + lines[i]).utf8) }
                io.stdout.write(bytes: out + [0x0A])
            }
            return .ok
        }
        // Above: the picture, then the card.
        io.stdout.write(bytes: picture.bytes + Array("\u{1B}[0m\n".utf8))
        for line in lines { io.stdout.line(line) }
        return .ok
    }

    /// The item: the product's members, the row when it was one, then liked and tracked prices.
    func json(_ shown: ShowCommand.Shown) -> JSONValue {
        var o = JSONObject()
        let card = shown.card
        if let rank = card.rank { o.appendUnchecked("rank", .int(rank)) }
        ItemJSON.appendProduct(card.product, to: &o)
        o.appendUnchecked("liked", .bool(shown.like != nil))
        o.appendUnchecked("likedAt", .string(orNull: shown.like?.likedAt))
        o.appendUnchecked("likedPrice", .int(orNull: shown.like?.likedPrice))
        let record = card.tracked?.record
        o.appendUnchecked("priceNow", .int(orNull: record?.latest))
        o.appendUnchecked("lowest", .int(orNull: record?.lowest?.price))
        o.appendUnchecked("refreshedAt", .string(orNull: record?.refreshedAt))
        o.appendUnchecked("history", .array((record?.points ?? []).map { point in
            var p = JSONObject()
            p.appendUnchecked("at", .string(point.at))
            p.appendUnchecked("price", .int(orNull: point.price))
            return .object(p)
        }))
        return .object(o)
    }
}
