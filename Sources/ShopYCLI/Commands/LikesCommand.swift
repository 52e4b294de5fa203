import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYCore
import ShopYBase

/// `shopy likes`: the liked products, and their export, import and clearing.
public struct LikesCommand: ResultCommand {
    public enum Sort: String, CaseIterable, Sendable {
        case recent, price, title
    }

    public static let spec = CommandSpec(
        name: "likes",
        abstract: "List liked products; export, import or clear them.",
        discussion: "Rows are numbered, and become the last listing, as after a search: 'shopy unlike 2', 'shopy open 2' and 'shopy copy 2' act on the second row printed here. The table shows each like's productId too, for --id. JSON items carry likedAt, likedPrice (the price when liked), and the lowest and highest prices seen.",
        options: [sort.spec, drops.spec, history.spec] + formats.specs,
        examples: ["shopy likes", "shopy likes --drops --sort change", "shopy likes refresh", "shopy likes alert 88159546540 --drop 10", "shopy likes --sort price --format csv > likes.csv", "shopy likes export likes-backup.json",
                   "shopy likes import likes-backup.json", "shopy likes clear --yes"])

    /// How `--sort` orders the likes: a stored order, or by the change since liked.
    public enum Order: String, CaseIterable, Sendable {
        case recent, price, title, change
    }

    static let sort = Option.value("sort", value: "order", help: "recent (default: newest like first), price (lowest first), title, or change (largest drop since liked first).",
                                   type: ValueType<Order>.choice(), default: .recent)
    static let drops = Option.flag("drops", help: "Only likes whose latest price is below the liked price.")
    static let history = Option.flag("history", help: "JSON: add each like's price history (\"history\": [{\"at\", \"price\"}]).")
    static let formats = SharedOptions.listingFormats

    public static var subcommands: [any Command.Type] { [LikesExportCommand.self, LikesImportCommand.self, LikesClearCommand.self,
                                                     LikesRefreshCommand.self, LikesAlertCommand.self, LikesAlertsCommand.self] }

    public var sort: Sort
    public var format: OutputFormat?
    public var drops = false
    public var history = false
    /// `--sort change` (PriceView orders by the change since liked; not a `Sort` of the stored likes).
    public var byChange = false

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        drops = parsed[Self.drops]
        history = parsed[Self.history]
        let order = try Self.sort.read(parsed)
        byChange = order == .change
        sort = Sort(rawValue: order.rawValue) ?? .recent
        format = try Self.formats.read(parsed)
    }

    /// The likes as `likes` lists them.
    public enum Listing: Sendable {
        /// JSON or JSONL before any refresh, in the stored order: written from the stored bytes.
        case stored([LikeCollection.RawLike])
        /// Sorted, filtered (`--drops`) and ordered by the change when asked, with the prices;
        /// `total`: how many likes there are before the filter.
        case likes([Like], book: PriceBook, total: Int)
    }

    /// The likes in the order printed; their rows are remembered as the last listing, so that
    /// `unlike 2` means the second row printed here, as after a search.
    public func execute(_ context: Context) async throws -> Listing {
        let store = LikeSupport.store(context)
        let resolvedFormat = format.resolved(for: context.io)
        let prices = try store.read { settings in settings.prices }
        let memory = ListingMemory(context: context)
        if (resolvedFormat == .json || resolvedFormat == .jsonl) && sort != .title && !byChange && prices.isEmpty && !drops && !history {
            let likes = Self.sorted(try store.read { settings in settings.allRawLikesWithIDs() }, by: sort)
            memory.rememberLikes(listingDescription, ids: likes.map(\.id))
            return .stored(likes.map(\.like))
        }
        let likes: [Like] = try store.read { settings in try settings.allLikes() }
        let arranged = PriceView.arrange(Self.sorted(likes, by: sort), book: prices, byChange: byChange, dropsOnly: drops)
        memory.rememberLikes(listingDescription, ids: arranged.map(\.product.productId))
        return .likes(arranged, book: prices, total: likes.count)
    }

    /// How the listing names itself in messages about its rows: `likes`, `likes (sort price, drops)`.
    var listingDescription: String {
        var details: [String] = []
        if byChange || sort != .recent { details.append("sort \(byChange ? "change" : sort.rawValue)") }
        if drops { details.append("drops") }
        return details.isEmpty ? "likes" : "likes (\(details.joined(separator: ", ")))"
    }

    /// Stored likes as checked bytes in the order `sort` asks (recent or price; title needs the
    /// decoded likes), without decoding them.
    static func sorted(_ likes: [(id: String, like: LikeCollection.RawLike)], by sort: Sort) -> [(id: String, like: LikeCollection.RawLike)] {
        let indices = Array(likes.indices)
        let order: [Int]
        switch sort {
        case .recent:
            if let keys = LikesFile.timestampKeys(likes.map(\.like)) {
                // The usual case: every likedAt as shopy writes it, compared as numbers.
                order = indices.sorted { a, b in keys[a] != keys[b] ? keys[a] > keys[b] : a > b }
            } else {
                order = indices.sorted { a, b in
                    let x = likes[a].like.likedAt, y = likes[b].like.likedAt
                    return x.elementsEqual(y) ? a > b : y.lexicographicallyPrecedes(x)
                }
            }
        case .price:
            order = indices.sorted { a, b in
                switch (likes[a].like.price, likes[b].like.price) {
                case let (x?, y?) where x != y: return x < y
                case (nil, _?): return false
                case (_?, nil): return true
                default: return a < b
                }
            }
        case .title:
            order = indices
        }
        return order.map { likes[$0] }
    }

    public var presenter: LikesPresenter { LikesPresenter(sort: sort, format: format, history: history, byChange: byChange) }

    static func sorted(_ likes: [Like], by sort: Sort) -> [Like] {
        let indexed = Array(likes.enumerated())
        let ordered: [(offset: Int, element: Like)]
        switch sort {
        case .recent:
            ordered = indexed.sorted { a, b in
                a.element.likedAt != b.element.likedAt ? a.element.likedAt > b.element.likedAt : a.offset > b.offset
            }
        case .price:
            ordered = indexed.sorted { a, b in
                switch (a.element.product.price, b.element.product.price) {
                case let (x?, y?) where x != y: return x < y
                case (nil, _?): return false
                case (_?, nil): return true
                default: return a.offset < b.offset
                }
            }
        case .title:
            let keys = likes.map { $0.product.title.lowercased() }
            ordered = indexed.sorted { a, b in
                keys[a.offset] != keys[b.offset] ? keys[a.offset] < keys[b.offset] : a.offset < b.offset
            }
        }
        return ordered.map(\.element)
    }
}

/// The export format: the stored likes with a schema version and a time.
enum LikesFile {
    static let schema = 1

    static func export(_ likes: LikeCollection, at time: String, prices: PriceBook = PriceBook()) -> [UInt8] {
        var out = Array("{\"schema\":\(schema),\n\"exportedAt\":\"\(time)\",\n\"likes\":".utf8)
        out += likes.encodeStored()
        out += PriceExport.member(prices)
        out += Array("}\n".utf8)
        return out
    }

    /// Reads an export (or a bare array of likes), checking every like before anything changes.
    static func parse(_ bytes: [UInt8], path: String) throws(StoreError) -> [Like] {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw .invalidImport(path: path, problem: error.reason == .empty ? "it is empty" : "it is not valid JSON: \(error)")
        }
        let array: [JSONValue]
        switch json {
        case .array(let values):
            array = values
        case .object(let object):
            if let schema = object["schema"] {
                guard let version = schema.intValue, version >= 1 else { throw .invalidImport(path: path, problem: "its \"schema\" is not a version number") }
                if version > Self.schema { throw .invalidImport(path: path, problem: "it has schema version \(version), newer than this shopy knows (\(Self.schema))") }
            }
            guard case .array(let values)? = object["likes"] else {
                throw .invalidImport(path: path, problem: "it has no \"likes\" list")
            }
            array = values
        default:
            throw .invalidImport(path: path, problem: "it is \(json.kindName), not a likes export")
        }
        var likes: [Like] = []
        for (i, value) in array.enumerated() {
            do {
                likes.append(try Like(json: value))
            } catch {
                throw .invalidImport(path: path, problem: "like \(i + 1) \(error.problem)")
            }
        }
        return likes
    }
}

/// `shopy likes export [FILE]`
public struct LikesExportCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "export",
        abstract: "Write the likes as JSON to FILE, or to stdout.",
        arguments: [ArgumentSpec("file", help: "Where to write (replaced atomically, mode 0600). Default or '-': stdout.", optional: true)],
        options: [force.spec],
        examples: ["shopy likes export > likes.json", "shopy likes export ~/likes-2026-11.json", "shopy likes export likes.json --force"])

    static let force = Option.flag("force", help: "Replace FILE when it exists and is not empty; without it nothing is written.")

    public var file: String?
    public var force: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count <= 1 else { throw UsageError("likes export takes one FILE at most") }
        file = parsed.positionals.first.flatMap { $0 == "-" ? nil : $0 }
        force = parsed[Self.force]
    }

    /// What `likes export` made: the document for stdout, or the file it wrote.
    public enum Exported: Sendable {
        case document([UInt8])
        case written(count: Int, file: String)
    }

    public func execute(_ context: Context) async throws -> Exported {
        let store = LikeSupport.store(context)
        let (bytes, count) = try store.read { settings in
            let likes = settings.likes
            return (LikesFile.export(likes, at: Like.timestamp(context.io.now()), prices: settings.prices), likes.count)
        }
        guard let file else { return .document(bytes) }
        let path = file.hasPrefix("/") ? file : context.io.currentDirectory + "/" + file
        // An earlier export (or anything else) is never lost by accident, as `clear` needs --yes.
        var info = stat()
        if !force && stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_size > 0 {
            throw UsageError("'\(Sanitizer.clean(file))' exists; nothing was written", hint: "shopy likes export \(Sanitizer.clean(file)) --force replaces it")
        }
        try FileIO.writeExport(bytes, to: path)
        return .written(count: count, file: file)
    }

    public var presenter: LikesExportPresenter { LikesExportPresenter() }
}

/// `shopy likes import FILE`
public struct LikesImportCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "import",
        abstract: "Merge likes from an export file: new ones are added, liked ones kept as they are.",
        discussion: "productId is the key; an existing like keeps its likedAt. A file with any malformed like is rejected whole, and nothing changes. Importing the same file twice equals importing it once.",
        arguments: [ArgumentSpec("file", help: "An export of 'shopy likes export' (or a JSON array of likes); '-' reads stdin.")],
        examples: ["shopy likes import likes.json"])

    public var file: String

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count == 1 else { throw UsageError("likes import needs exactly one FILE", hint: "e.g. shopy likes import likes.json") }
        file = parsed.positionals[0]
    }

    /// What an import did: likes read, added and kept (already liked).
    public struct Imported: Sendable, Equatable {
        public var total: Int
        /// The file as given, or "stdin".
        public var shown: String
        public var added: Int
        public var kept: Int
    }

    public func execute(_ context: Context) async throws -> Imported {
        let bytes: [UInt8]
        let shown: String
        if file == "-" {
            bytes = try context.io.stdin()
            shown = "stdin"
        } else {
            let path = file.hasPrefix("/") ? file : context.io.currentDirectory + "/" + file
            guard let read = try FileIO.readImport(path, shown: file) else { throw StoreError.io(path: file, operation: "read", errno: ENOENT) }
            bytes = read
            shown = file
        }
        let now = Like.timestamp(context.io.now())
        // Checked as bytes when it can be (fast), else strictly (precise errors); either way
        // every like is checked before anything changes.
        let checked = LikesFile.checkedElements(bytes)
        let incoming = checked == nil ? try LikesFile.parse(bytes, path: shown) : []
        let total = checked?.count ?? incoming.count
        try LikesFile.checkLikedAt(checked, incoming, path: shown)
        let prices = try PriceExport.parse(bytes, path: shown)
        let store = LikeSupport.store(context)
        let (added, kept) = try store.update(prices == nil ? [.likes] : [.likes, .prices]) { settings in
            var likes = settings.likes
            var added = 0, kept = 0
            for element in checked ?? [] {
                if try likes.addImported(element, now: now) { added += 1 } else { kept += 1 }
            }
            for var like in incoming {
                if like.likedAt.isEmpty { like.likedAt = now }
                if likes.add(like.bounded()) { added += 1 } else { kept += 1 }
            }
            if added > 0 { settings.likes = likes }
            if let prices { PriceExport.merge(prices, into: settings, liked: Set(likes.ids)) }
            return (added, kept)
        }
        return Imported(total: total, shown: shown, added: added, kept: kept)
    }

    public var presenter: LikesImportPresenter { LikesImportPresenter() }
}

/// `shopy likes clear --yes`
public struct LikesClearCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "clear",
        abstract: "Remove every like, after writing a backup file.",
        options: [yes.spec],
        examples: ["shopy likes clear --yes"])

    static let yes = SharedOptions.yes

    public var confirmed: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else { throw UsageError("likes clear takes no arguments") }
        confirmed = parsed[Self.yes]
    }

    /// Likes removed and the backup written first (nil when there were none).
    public func execute(_ context: Context) async throws -> (count: Int, backup: String?) {
        let store = LikeSupport.store(context)
        let now = context.io.now()
        let result: (Int, String?) = try store.update([.likes]) { settings in
            let likes = settings.likes
            guard !likes.isEmpty else { return (0, nil) }
            guard confirmed else {
                throw UsageError("clearing \(Money.grouped(likes.count)) like\(likes.count == 1 ? "" : "s") needs --yes",
                                 hint: "shopy likes clear --yes (a backup file is written first)")
            }
            let backup = FileIO.timestampedPath(in: store.directory, prefix: "likes-backup", at: now)
            try FileIO.atomicWrite(LikesFile.export(likes, at: Like.timestamp(now), prices: settings.prices), to: backup)
            var empty = likes
            empty.removeAll()
            settings.likes = empty
            return (likes.count, backup)
        }
        return result
    }

    public var presenter: LikesClearPresenter { LikesClearPresenter() }
}
