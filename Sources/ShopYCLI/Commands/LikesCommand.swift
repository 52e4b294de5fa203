import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYCore

/// `shopy likes`: the liked products, and their export, import and clearing.
public struct LikesCommand: Command {
    public enum Sort: String, CaseIterable, Sendable {
        case recent, price, title
    }

    public static let spec = CommandSpec(
        name: "likes",
        abstract: "List liked products; export, import or clear them.",
        discussion: "The table shows each like's productId (and no row numbers: rows belong to search, popular and rank), for 'shopy unlike --id', 'shopy open --id' and 'shopy copy --id'. JSON items carry likedAt and likedPrice (the price when liked).",
        options: [
            OptionSpec("sort", value: "order", help: "recent (default: newest like first), price (lowest first), title, or change (largest drop since liked first).",
                       choices: Sort.allCases.map(\.rawValue) + ["change"]),
            OptionSpec("drops", help: "Only likes whose latest price is below the liked price."),
            OptionSpec("history", help: "JSON: add each like's price history (\"history\": [{\"at\", \"price\"}])."),
            CommonOptions.format, CommonOptions.json,
        ],
        examples: ["shopy likes", "shopy likes --drops --sort change", "shopy likes refresh", "shopy likes alert 88159546540 --drop 10", "shopy likes --sort price --format csv > likes.csv", "shopy likes export likes-backup.json",
                   "shopy likes import likes-backup.json", "shopy likes clear --yes"])

    public static var subcommands: [any Command.Type] { [LikesExportCommand.self, LikesImportCommand.self, LikesClearCommand.self,
                                                     LikesRefreshCommand.self, LikesAlertCommand.self, LikesAlertsCommand.self] }

    public var sort: Sort
    public var format: OutputFormat?
    public var drops = false
    public var history = false
    /// `--sort change` (PriceView orders by the change since liked; not a `Sort` of the stored likes).
    public var byChange = false

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        drops = parsed.flag("drops")
        history = parsed.flag("history")
        if let first = parsed.positionals.first {
            let names = Self.subcommands.map { $0.spec.name }
            let hint = Suggest.closest(to: first, among: names).map { "did you mean 'shopy likes \($0)'?" } ?? "subcommands: \(names.joined(separator: ", "))"
            throw UsageError("unknown subcommand 'likes \(Sanitizer.clean(first))'", hint: hint)
        }
        byChange = parsed.value("sort") == "change"
        sort = byChange ? .recent : try parsed.value("sort").map { v throws(UsageError) in
            try ArgumentParser.choice(v, option: "sort", as: Sort.self, allowed: Sort.allCases)
        } ?? .recent
        format = try CommonOptions.format(parsed)
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let store = LikeSupport.store(context)
        let resolvedFormat = format.resolved(for: context.io)
        let prices = try store.read { settings in settings.prices }
        if (resolvedFormat == .json || resolvedFormat == .jsonl) && sort != .title && !byChange && prices.isEmpty && !drops && !history {
            try writeRaw(try store.read { settings in settings.allRawLikes() }, format: resolvedFormat, io: context.io)
            return .ok
        }
        let likes: [Like] = try store.read { settings in try settings.allLikes() }
        let sorted = PriceView.arrange(Self.sorted(likes, by: sort), book: prices, byChange: byChange, dropsOnly: drops)
        let items = PriceView.items(sorted, book: prices, history: history, table: resolvedFormat == .table)
        let io = context.io
        switch format.resolved(for: io) {
        case .json:
            var o = JSONObject()
            o.appendUnchecked("sort", .string(sort.rawValue))
            o.appendUnchecked("count", .int(items.count))
            o.appendUnchecked("items", .array(items.map(ItemJSON.object)))
            io.writeJSON(.object(o))
        case .jsonl, .tsv, .csv:
            io.stdout.write(Render.lines(items, format: format.resolved(for: io)) ?? "")
        case .table:
            if items.isEmpty {
                io.stdout.line("no likes yet: 'shopy like <row>' after a search adds one")
            } else {
                // No row numbers: 'unlike 2' takes rows of the last search, popular or rank
                // listing, so numbers here would point at the wrong item. The ids are the handle.
                for line in Render.table(items, columns: io.columns, color: io.useColor, showID: true, showRank: false) { io.stdout.line(line) }
                let footer = "\(Money.grouped(items.count)) like\(items.count == 1 ? "" : "s") · sort \(sort.rawValue) · by id: shopy unlike|open|copy --id ID"
                io.stdout.line(Style.dim.apply(DisplayWidth.truncate(footer, toWidth: io.columns), enabled: io.useColor))
            }
        }
        return .ok
    }

    /// JSON and JSONL straight from the stored bytes (checked, not decoded): the same document
    /// the decoded path writes, since likes are stored in the item schema's key order, without
    /// building 10,000 values and encoding them again.
    func writeRaw(_ likes: [LikeCollection.RawLike], format: OutputFormat, io: IO) throws {
        let order: [Int]
        let indices = Array(likes.indices)
        switch sort {
        case .recent:
            if let keys = LikesFile.timestampKeys(likes) {
                // The usual case: every likedAt as shopy writes it, compared as numbers.
                order = indices.sorted { a, b in keys[a] != keys[b] ? keys[a] > keys[b] : a > b }
            } else {
                order = indices.sorted { a, b in
                    let x = likes[a].likedAt, y = likes[b].likedAt
                    return x.elementsEqual(y) ? a > b : y.lexicographicallyPrecedes(x)
                }
            }
        case .price:
            order = indices.sorted { a, b in
                switch (likes[a].price, likes[b].price) {
                case let (x?, y?) where x != y: return x < y
                case (nil, _?): return false
                case (_?, nil): return true
                default: return a < b
                }
            }
        case .title:
            order = indices
        }
        // Written out a megabyte at a time: 100,000 likes make 70 MB of JSON, which need not be
        // in memory at once.
        var writer = JSONWriter(pretty: format == .json, capacity: min(likes.reduce(256) { $0 + $1.bytes.count * 2 }, 2 << 20))
        if format == .json {
            writer.append("{\n  \"sort\": \"\(sort.rawValue)\",\n  \"count\": \(likes.count),\n  \"items\": ")
            if likes.isEmpty { writer.append("[]") } else { writer.append("[") }
        }
        for (rank, index) in order.enumerated() {
            if writer.bytes.count >= 1 << 20 {
                io.stdout.write(bytes: writer.bytes)
                writer.bytes.removeAll(keepingCapacity: true)
            }
            var body = likes[index].bytes
            while let first = body.first, first != UInt8(ascii: "{") { body = body.dropFirst() }
            body = body.dropFirst()  // the like's "{": "rank" goes first
            if !likes[index].canonical {
                // Hand-edited (other key order, missing or extra keys): decode it so that the
                // item has the schema's keys in order, like every other.
                let like = try LikeCollection.decode(likes[index].bytes)
                let item = ItemJSON.object(ListedItem(rank: rank + 1, product: like.product,
                                                      extra: [("likedAt", .string(like.likedAt)), ("likedPrice", .int(orNull: like.likedPrice))]))
                if format == .json {
                    writer.append(rank == 0 ? "\n    " : ",\n    ")
                    writer.write(item, indent: 2)
                } else {
                    writer.write(item)
                    writer.bytes.append(0x0A)
                }
            } else if format == .json {
                writer.append(rank == 0 ? "\n    {\n      \"rank\": \(rank + 1)," : ",\n    {\n      \"rank\": \(rank + 1),")
                writer.append("\n      ")
                writer.appendRaw(body, indent: 3)
            } else {
                writer.append("{\"rank\":\(rank + 1),")
                writer.appendRaw(body)
                writer.bytes.append(0x0A)
            }
        }
        if format == .json { writer.append(likes.isEmpty ? "\n}\n" : "\n  ]\n}\n") }
        io.stdout.write(bytes: writer.bytes)
    }

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
public struct LikesExportCommand: Command {
    public static let spec = CommandSpec(
        name: "export",
        abstract: "Write the likes as JSON to FILE, or to stdout.",
        arguments: [ArgumentSpec("file", help: "Where to write (replaced atomically, mode 0600). Default or '-': stdout.", optional: true)],
        options: [OptionSpec("force", help: "Replace FILE when it exists and is not empty; without it nothing is written.")],
        examples: ["shopy likes export > likes.json", "shopy likes export ~/likes-2026-11.json", "shopy likes export likes.json --force"])

    public var file: String?
    public var force: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count <= 1 else { throw UsageError("likes export takes one FILE at most") }
        file = parsed.positionals.first.flatMap { $0 == "-" ? nil : $0 }
        force = parsed.flag("force")
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let store = LikeSupport.store(context)
        let (bytes, count) = try store.read { settings in
            let likes = settings.likes
            return (LikesFile.export(likes, at: Like.timestamp(context.io.now()), prices: settings.prices), likes.count)
        }
        if let file {
            let path = file.hasPrefix("/") ? file : context.io.currentDirectory + "/" + file
            // An earlier export (or anything else) is never lost by accident, as `clear` needs --yes.
            var info = stat()
            if !force && stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_size > 0 {
                throw UsageError("'\(Sanitizer.clean(file))' exists; nothing was written", hint: "shopy likes export \(Sanitizer.clean(file)) --force replaces it")
            }
            try FileIO.writeExport(bytes, to: path)
            context.io.notice("shopy: exported \(Money.grouped(count)) like\(count == 1 ? "" : "s") to \(Sanitizer.clean(file))")
        } else {
            context.io.stdout.write(bytes: bytes)
        }
        return .ok
    }
}

/// `shopy likes import FILE`
public struct LikesImportCommand: Command {
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

    public func run(_ context: Context) async throws -> ExitCode {
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
                if likes.add(like) { added += 1 } else { kept += 1 }
            }
            if added > 0 { settings.likes = likes }
            if let prices { PriceExport.merge(prices, into: settings, liked: Set(likes.ids)) }
            return (added, kept)
        }
        context.io.stdout.line("imported \(Money.grouped(total)) from \(Sanitizer.clean(shown)): \(Money.grouped(added)) added, \(Money.grouped(kept)) kept (already liked)")
        return .ok
    }
}

/// `shopy likes clear --yes`
public struct LikesClearCommand: Command {
    public static let spec = CommandSpec(
        name: "clear",
        abstract: "Remove every like, after writing a backup file.",
        options: [OptionSpec("yes", help: "Confirm. Without it nothing is removed.")],
        examples: ["shopy likes clear --yes"])

    public var confirmed: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else { throw UsageError("likes clear takes no arguments") }
        confirmed = parsed.flag("yes")
    }

    public func run(_ context: Context) async throws -> ExitCode {
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
        if let backup = result.1 {
            context.io.stdout.line("cleared \(Money.grouped(result.0)) like\(result.0 == 1 ? "" : "s"); backup: \(backup)")
            context.io.stdout.line("restore with: shopy likes import \(backup)")
        } else {
            context.io.stdout.line("no likes to clear")
        }
        return .ok
    }
}
