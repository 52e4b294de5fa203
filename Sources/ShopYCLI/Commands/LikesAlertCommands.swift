import Foundation
import ShopYCore
import ShopYBase

/// `shopy likes alert ROW|ID --below PRICE | --drop PERCENT | --off`
public struct LikesAlertCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "alert",
        abstract: "Set or remove the price alert of a like.",
        discussion: "--below fires when a refresh sees the price at or below PRICE; --drop when it is PERCENT or more under the liked price. An alert fires once per crossing: again only after a refresh has seen the price back above its line. 'shopy likes refresh' lists the alerts that fired.",
        arguments: [ArgumentSpec("target", help: "A row of the last listing or the productId of a like.")],
        options: [id.spec, below.spec, drop.spec, off.spec],
        examples: ["shopy likes alert 88159546540 --below 12000", "shopy likes alert 3 --drop 10", "shopy likes alert 88159546540 --off"])

    public enum Change: Equatable, Sendable {
        case set(PriceAlert.Rule)
        case off
    }

    static let id = LikeSupport.id.withHelp("Take the argument as a productId.")
    static let below = Option.optional("below", value: "price", help: "Alert at or below this price (won, more than 0).",
                                       type: ValueType<Int> { text, option throws(UsageError) in
                                           do {
                                               return try ArgumentParser.integer(Self.digits(text), option: option, in: 1...Int(Int32.max))
                                           } catch {
                                               // Say it of the price as typed, not of what was left of it.
                                               throw UsageError("invalid --\(option) '\(Echo.value(text))': expected a price in won from 1 to \(Money.grouped(Int(Int32.max))), as 12000, 12,000 or 12,000원")
                                           }
                                       })
    static let drop = Option.optional("drop", value: "percent", help: "Alert at this drop against the liked price, 1 to 99 (%); refused when the line would be under 1원 (it could never fire).",
                                      type: ValueType<Int> { text, option throws(UsageError) in
                                          try ArgumentParser.integer(Self.digits(text, percent: true), option: option, in: 1...99)
                                      })
    static let off = Option.flag("off", help: "Remove the alert.")

    public var target: LikeTarget
    public var change: Change

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 1 else {
            throw UsageError("likes alert needs one ROW or ID", hint: "e.g. shopy likes alert 88159546540 --drop 10")
        }
        target = try LikeTarget.parse(parsed.positionals[0], forceID: parsed[Self.id])
        let given = [Self.below.isGiven(parsed), Self.drop.isGiven(parsed), parsed[Self.off]].filter { $0 }.count
        guard given == 1 else { throw UsageError("give one of --below PRICE, --drop PERCENT or --off") }
        if let price = try Self.below.read(parsed) {
            change = .set(.below(price))
        } else if let percent = try Self.drop.read(parsed) {
            change = .set(.drop(percent: percent))
        } else {
            change = .off
        }
    }

    /// `12,000`, `12000원` and `10%` are read as typed by people; anything else is left as is
    /// for the integer check to refuse. Commas are taken only as thousands separators (groups
    /// of three after the first: `1,234,567`): `12,00` or `1,2,3` is a typo whose meaning is
    /// not known, left with its commas to be refused.
    static func digits(_ text: String, percent: Bool = false) -> String {
        var t = text.trimmingASCIIWhitespace()
        if percent, t.hasSuffix("%") { t.removeLast() }
        if !percent, t.hasSuffix("원") { t.removeLast() }
        guard t.contains(",") else { return t }
        let groups = t.split(separator: ",", omittingEmptySubsequences: false)
        // The first group neither empty nor longer than three, nor a zero before more (`0,100`).
        guard let first = groups.first, (1...3).contains(first.count), !first.hasPrefix("0"),
              groups.dropFirst().allSatisfy({ $0.count == 3 }) else { return t }
        return groups.joined()
    }

    /// What changed: the line saying so (every id and title in it cleaned).
    public func execute(_ context: Context) async throws -> TerminalText {
        let store = LikeSupport.store(context)
        return try store.update([.prices]) { settings in
            guard let like = try LikeResolution.likes([target], likes: settings.likes, listing: settings.lastListing).first else {
                throw UsageError("'\(Sanitizer.clean(target.text))' is not liked")
            }
            let id = like.product.productId
            var book = settings.prices
            var record = book[id] ?? PriceRecord()
            let line: TerminalText
            switch change {
            case .off:
                guard record.alert != nil else { return "no alert on \(id) · \(like.product.title)" }
                record.alert = nil
                line = "alert removed: \(id) · \(like.product.title)"
            case .set(let rule):
                if case .drop(let percent) = rule {
                    guard let liked = like.likedPrice else {
                        throw UsageError("\(Sanitizer.clean(id)) has no liked price to drop from", hint: "use --below PRICE")
                    }
                    // A line under 1원 is never reached: an alert that can never fire is refused.
                    let largest = PriceAlert.largestDrop(from: liked)
                    if percent > largest ?? 0 {
                        throw UsageError("a \(percent)% drop from \(Money.won(liked)) is under 1원: this alert could never fire (prices are whole won)",
                                         hint: largest.map { "from \(Money.won(liked)) a drop of at most \($0)% can fire; or use --below PRICE" }
                                             ?? "no drop can fire from \(Money.won(liked)); use --below PRICE")
                    }
                }
                let alert = PriceAlert(rule: rule)
                record.alert = alert
                let at = alert.line(likedPrice: like.likedPrice).map { " (at or below \(Money.won($0)))" } ?? ""
                line = "alert set: \(id) \(alert.description)\(at) · \(like.product.title)"
            }
            book[id] = record
            settings.prices = book
            return line
        }
    }

    public var presenter: LikesAlertPresenter { LikesAlertPresenter() }
}

/// `shopy likes alerts`
public struct LikesAlertsCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "alerts",
        abstract: "List the price alerts of likes.",
        options: formats.specs,
        examples: ["shopy likes alerts", "shopy likes alerts --json"])

    /// The alerts are lines (table) or one JSON document.
    static let formats = FormatOptions(accepting: [OutputFormat.table, .json], notes: [.table: "default"])

    public var format: OutputFormat?

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else { throw UsageError("likes alerts takes no arguments") }
        format = try Self.formats.read(parsed)
    }

    /// A like with an alert, and its price record.
    public struct Row: Sendable {
        public var like: Like
        public var record: PriceRecord
        public var alert: PriceAlert
    }

    public func execute(_ context: Context) async throws -> [Row] {
        let store = LikeSupport.store(context)
        return try store.read { settings in
            let book = settings.prices
            return try settings.allLikes().compactMap { like in
                guard let record = book[like.product.productId], let alert = record.alert else { return nil }
                return Row(like: like, record: record, alert: alert)
            }
        }
    }

    public var presenter: LikesAlertsPresenter { LikesAlertsPresenter(format: format) }
}
