import Foundation
import ShopYCore
import ShopYBase

extension LikeTarget {
    /// A number of up to four digits (ranks reach 1,099) or `section.rank` is a row; anything
    /// else is a productId (Naver's are 8 digits or more). `--id` makes every argument an id.
    public static func parse(_ text: String, forceID: Bool) throws(UsageError) -> LikeTarget {
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty, !trimmed.contains(where: { $0.isWhitespace }) else {
            throw UsageError("'\(Echo.value(text))' is neither a row number nor a productId")
        }
        if !forceID {
            let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
            let numeric = parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
            if numeric && ((parts.count == 1 && trimmed.count <= 4) || parts.count == 2) {
                // `07` is row 7 (rows are printed without leading zeros); `0` stays 0, no row.
                return .row(parts.map { part in
                    let digits = part.drop(while: { $0 == "0" })
                    return digits.isEmpty ? "0" : String(digits)
                }.joined(separator: "."))
            }
            // Digits and points that make no row (`7.`, `.7`, `2.1.1`): a mistyped row, said as
            // such, not looked up as an id that cannot exist (`--id` takes any text as an id).
            if trimmed.contains("."), trimmed.allSatisfy({ $0 == "." || ($0.isASCII && $0.isNumber) }) {
                throw UsageError("'\(Echo.value(text))' is neither a row number nor a productId (a row is 3, or 2.5 in popular; a productId is \(ProductID.described))")
            }
        }
        // Longer than any productId: it names nothing, and it is not echoed whole (100 KB of it).
        guard trimmed.utf8.count <= ProductID.maxLength else {
            throw UsageError("'\(Echo.value(text))' is \(forceID ? "not a productId" : "neither a row number nor a productId") (a productId is \(ProductID.described))")
        }
        return .id(trimmed)
    }
}

/// Shared by the commands that touch likes and listings.
enum LikeSupport {
    static func store(_ context: Context) -> SettingsStore {
        let store = context.store
        context.trace("files: \(store.directory)")
        return store
    }

    /// The product behind each target (see `LikeResolution`).
    static func resolve(_ targets: [LikeTarget], listing: LastListing?, likes: LikeCollection? = nil, context: Context) throws -> [(LikeTarget, Product?)] {
        try LikeResolution.resolve(targets, listing: listing, likes: likes, catalog: context.catalogLookup,
                                   coupangCutoff: CoupangSource.listingCutoff(now: context.io.now()))
    }

    static func describe(_ product: Product) -> TerminalText {
        var text: TerminalText = "\(product.productId)  \(DisplayWidth.truncate(Sanitizer.clean(product.title), toWidth: 50))"
        if let price = product.price { text += " (\(Money.won(price)))" }
        return text
    }

    static let targetsArgument = ArgumentSpec("row-or-id", help: "A row number printed by the last listing (search, popular, rank or likes; e.g. 3, or 2.5 in popular), or a productId.", variadic: true)
    /// `--id`, declared once for like, unlike, open, copy, likes refresh and likes alert (each
    /// with its own help words).
    static let id = Option.flag("id", help: "Treat every argument as a productId, even a short number.")

    static func targets(_ parsed: ParsedArguments, verb: String, id: Option<Bool> = LikeSupport.id) throws(UsageError) -> [LikeTarget] {
        guard !parsed.positionals.isEmpty else {
            throw UsageError("\(verb) needs at least one row number or productId", hint: "e.g. shopy \(verb) 3")
        }
        return try parse(parsed.positionals, forceID: parsed[id])
    }

    /// Each text as a target (see `LikeTarget.parse`).
    static func parse(_ texts: [String], forceID: Bool) throws(UsageError) -> [LikeTarget] {
        var targets: [LikeTarget] = []
        for text in texts { targets.append(try LikeTarget.parse(text, forceID: forceID)) }
        return targets
    }
}

/// `shopy like <ROW|ID>…`
public struct LikeCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "like",
        abstract: "Like products by row number or productId.",
        discussion: "A like keeps the whole item (title, price, mall, brand, maker, categories, link, image) with the time and the price when liked, so likes work offline. Liking a liked product changes nothing. A productId no listing shows is taken from the offline catalog; an 11번가 one (11st:…) is looked up at 11번가 (ELEVENST_API_KEY; one ProductInfo request); a Coupang one (coupang:…) only from a listing of the last hour, since Coupang has no look-up by id and its terms let shopy keep its results an hour.",
        arguments: [LikeSupport.targetsArgument],
        options: [LikeSupport.id.spec],
        examples: ["shopy search 방충망 && shopy like 1 3", "shopy like --id 80285861246", "shopy like --id 11st:6543210987"])

    public var targets: [LikeTarget]

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        targets = try LikeSupport.targets(parsed, verb: "like")
    }

    /// 11번가 ids that nothing at hand holds are looked up first (`LikeLookup`: ELEVENST_API_KEY,
    /// one request each); any failure there changes nothing.
    public func execute(_ context: Context) async throws -> [LikeChanges.Change] {
        let store = LikeSupport.store(context)
        let catalog = context.catalogLookup
        var lookedUp: [String: Product] = [:]
        let ids = try LikeLookup.elevenStreetIDs(targets, store: store, catalog: catalog)
        if !ids.isEmpty {
            let source = try context.elevenStreetSource(timeout: LikeLookup.timeout)
            lookedUp = try await LikeLookup.products(ids, source: source)
        }
        return try LikeChanges.like(targets, store: store, at: Like.timestamp(context.io.now()), catalog: catalog, lookedUp: lookedUp)
    }

    public var presenter: LikeChangesPresenter { LikeChangesPresenter() }
}

/// `shopy unlike <ROW|ID>…`
public struct UnlikeCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "unlike",
        abstract: "Remove likes by row number or productId.",
        discussion: "Unliking a product that is not liked changes nothing.",
        arguments: [LikeSupport.targetsArgument],
        options: [LikeSupport.id.spec],
        examples: ["shopy unlike 3", "shopy unlike --id 80285861246", "shopy likes --format tsv | cut -f2 | xargs shopy unlike --id"])

    public var targets: [LikeTarget]

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        targets = try LikeSupport.targets(parsed, verb: "unlike")
    }

    public func execute(_ context: Context) async throws -> [LikeChanges.Change] {
        try LikeChanges.unlike(targets, store: LikeSupport.store(context), catalog: context.catalogLookup)
    }

    public var presenter: LikeChangesPresenter { LikeChangesPresenter() }
}
