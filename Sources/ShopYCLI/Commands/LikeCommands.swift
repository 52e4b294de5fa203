import Foundation
import ShopYCore

/// What `like`/`unlike` were given: a row of the last listing or a productId.
public enum LikeTarget: Equatable, Sendable {
    case row(String)
    case id(String)

    /// A number of up to four digits (ranks reach 1,099) or `section.rank` is a row; anything
    /// else is a productId (Naver's are 8 digits or more). `--id` makes every argument an id.
    public static func parse(_ text: String, forceID: Bool) throws(UsageError) -> LikeTarget {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty, !trimmed.contains(where: { $0.isWhitespace }) else {
            throw UsageError("'\(Sanitizer.clean(text))' is neither a row number nor a productId")
        }
        if forceID { return .id(trimmed) }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        let numeric = parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
        if numeric && ((parts.count == 1 && trimmed.count <= 4) || parts.count == 2) { return .row(trimmed) }
        return .id(trimmed)
    }

    /// As the user gave it.
    public var text: String {
        switch self {
        case .row(let row): return row
        case .id(let id): return id
        }
    }
}

/// Shared by the commands that touch likes and listings.
enum LikeSupport {
    static func store(_ context: Context) -> SettingsStore {
        let store = context.store
        context.trace("files: \(store.directory)")
        return store
    }

    /// Finds the product behind each target: rows and ids of the last listing first, then the
    /// offline catalog for ids. Everything is resolved before anything changes.
    static func resolve(_ targets: [LikeTarget], listing: LastListing?, environment: [String: String]? = nil) throws -> [(LikeTarget, Product?)] {
        var resolved: [(LikeTarget, Product?)] = []
        for target in targets {
            switch target {
            case .row(let row):
                guard let listing else {
                    throw UsageError("there is no listing yet to take row \(row) from", hint: "run 'shopy search <query>' first, or give a productId with --id")
                }
                guard let found = listing.rows.first(where: { $0.row == row }) else {
                    let span = RowList.describe(listing.rows.map(\.row))
                    throw UsageError("row \(row) is not in the last listing (\(Sanitizer.clean(listing.command)); \(span))")
                }
                resolved.append((target, found.product))
            case .id(let id):
                if let row = listing?.rows.first(where: { $0.product.productId == id }) {
                    resolved.append((target, row.product))
                } else if let item = environment.map({ Catalog.item(productId: id, environment: $0) }) ?? Catalog.embeddedItem(productId: id) {
                    resolved.append((target, ProductMapper.product(from: item)))
                } else {
                    // Unliking needs no snapshot; liking does (the check is the caller's).
                    resolved.append((target, nil))
                }
            }
        }
        return resolved
    }

    /// The transaction both commands share: resolve every target first (a bad one changes
    /// nothing), apply `step` to each, write the likes only when one changed, then print a line
    /// a target.
    static func change(_ targets: [LikeTarget], context: Context,
                       _ step: (inout LikeCollection, LikeTarget, Product?) throws -> (line: TerminalText, changed: Bool)) throws -> ExitCode {
        // Lines are TerminalText: every id and title in them is cleaned (ids come from the network).
        let lines: [TerminalText] = try store(context).update([.likes]) { settings in
            var likes = settings.likes
            var lines: [TerminalText] = []
            var changed = false
            for (target, product) in try resolve(targets, listing: settings.lastListing, environment: context.io.environment) {
                let outcome = try step(&likes, target, product)
                lines.append(outcome.line)
                changed = changed || outcome.changed
            }
            if changed { settings.likes = likes }
            return lines
        }
        for line in lines { context.io.stdout.line(line) }
        return .ok
    }

    static func describe(_ product: Product) -> TerminalText {
        var text: TerminalText = "\(product.productId)  \(DisplayWidth.truncate(Sanitizer.clean(product.title), toWidth: 50))"
        if let price = product.price { text += " (\(Money.won(price)))" }
        return text
    }

    static let targetsArgument = ArgumentSpec("row-or-id", help: "A row number printed by the last search, popular or rank listing (e.g. 3, or 2.5 in popular), or a productId.", variadic: true)
    static let idOption = OptionSpec("id", help: "Treat every argument as a productId, even a short number.")

    static func targets(_ parsed: ParsedArguments, verb: String) throws(UsageError) -> [LikeTarget] {
        guard !parsed.positionals.isEmpty else {
            throw UsageError("\(verb) needs at least one row number or productId", hint: "e.g. shopy \(verb) 3")
        }
        var targets: [LikeTarget] = []
        for text in parsed.positionals { targets.append(try LikeTarget.parse(text, forceID: parsed.flag("id"))) }
        return targets
    }
}

/// `shopy like <ROW|ID>…`
public struct LikeCommand: Command {
    public static let spec = CommandSpec(
        name: "like",
        abstract: "Like products by row number or productId.",
        discussion: "A like keeps the whole item (title, price, mall, brand, maker, categories, link, image) with the time and the price when liked, so likes work offline. Liking a liked product changes nothing.",
        arguments: [LikeSupport.targetsArgument],
        options: [LikeSupport.idOption],
        examples: ["shopy search 방충망 && shopy like 1 3", "shopy like --id 80285861246"])

    public var targets: [LikeTarget]

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        targets = try LikeSupport.targets(parsed, verb: "like")
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let now = Like.timestamp(context.io.now())
        return try LikeSupport.change(targets, context: context) { likes, target, product in
            guard let product else {
                if case .id(let id) = target, likes.contains(id) { return ("already liked: \(id)", false) }
                throw UsageError("product \(Sanitizer.clean(target.text)) is not in the last listing nor in the offline catalog",
                                 hint: "search for it first, then like its row")
            }
            // A listing saved before ids were checked may hold one the store would call damage.
            guard ProductID.usable(product.productId) == product.productId else {
                throw UsageError("\(target.text == product.productId ? "product" : "row \(Sanitizer.clean(target.text)) has") '\(Sanitizer.clean(product.productId))', which is not a usable productId; nothing was liked",
                                 hint: "search again: listings leave such items out")
            }
            if likes.add(Like(product: product, likedAt: now, likedPrice: product.price)) {
                return ("liked: " + LikeSupport.describe(product), true)
            }
            return ("already liked: " + LikeSupport.describe(product), false)
        }
    }
}

/// `shopy unlike <ROW|ID>…`
public struct UnlikeCommand: Command {
    public static let spec = CommandSpec(
        name: "unlike",
        abstract: "Remove likes by row number or productId.",
        discussion: "Unliking a product that is not liked changes nothing.",
        arguments: [LikeSupport.targetsArgument],
        options: [LikeSupport.idOption],
        examples: ["shopy unlike 3", "shopy unlike --id 80285861246", "shopy likes --format tsv | cut -f2 | xargs shopy unlike --id"])

    public var targets: [LikeTarget]

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        targets = try LikeSupport.targets(parsed, verb: "unlike")
    }

    public func run(_ context: Context) async throws -> ExitCode {
        try LikeSupport.change(targets, context: context) { likes, target, product in
            // A row always resolves to a product; an id may be one no listing shows.
            let id = product?.productId ?? target.text
            // Every like was checked when the file loaded, so the stored snapshot decodes.
            let snapshot = try? likes.like(id)
            if likes.remove(id) {
                return ("unliked: \(snapshot.map { LikeSupport.describe($0.product) } ?? "\(id)")", true)
            }
            return ("not liked: \(product.map(LikeSupport.describe) ?? "\(id)")", false)
        }
    }
}
