import Foundation
import ShopYCore
import ShopYBase

/// `shopy likes`: the likes in table, TSV, CSV, JSON or JSONL, each with its latest known
/// price, the change since it was liked and the lowest seen. JSON items always carry
/// `likedAt`, `likedPrice`, `change`, `lowest`, `highest` and `refreshedAt` (null when unknown).
public struct LikesPresenter: Presenter {
    var sort: LikesCommand.Sort
    public var format: OutputFormat?
    var history: Bool
    /// `--sort change`: ordered by the change since liked (the listing says so).
    var byChange = false

    private var sortName: String { byChange ? "change" : sort.rawValue }

    public func present(_ listing: LikesCommand.Listing, context: Context) -> ExitCode {
        let io = context.io
        let format = self.format.resolved(for: io)
        let items: [ListedItem]
        var total = 0
        switch listing {
        case .stored(let likes):
            do {
                try writeRaw(likes, format: format, io: io)
            } catch {
                return ShopY.report(error, io: io)
            }
            return .ok
        case .likes(let likes, let book, let all):
            items = PriceView.items(likes, book: book, history: history, table: format == .table)
            total = all
        }
        switch format {
        case .json:
            var o = JSONObject()
            o.appendUnchecked("sort", .string(sortName))
            o.appendUnchecked("count", .int(items.count))
            o.appendUnchecked("items", .array(items.map(ItemJSON.object)))
            io.writeJSON(.object(o))
        case .jsonl, .tsv, .csv:
            io.stdout.write(Render.lines(items, format: format) ?? "")
        case .table:
            if items.isEmpty && total > 0 {
                // --drops left every like out.
                io.stdout.line(total == 1 ? "the like is not cheaper than when liked (prices: shopy likes refresh)"
                                          : "none of the \(Money.grouped(total)) likes is cheaper than when liked (prices: shopy likes refresh)")
            } else if items.isEmpty {
                io.stdout.line("no likes yet: 'shopy like <row>' after a search adds one")
            } else {
                // Numbered rows, remembered as the last listing: 'unlike 2' is the second row
                // here. The ids stay beside them, for --id (and rows past 9,999).
                for line in Render.table(items, columns: io.columns, color: io.useColor, showID: true, showRank: true) { io.stdout.line(line) }
                let footer = "\(Money.grouped(items.count)) like\(items.count == 1 ? "" : "s") · sort \(sortName) · shopy unlike|open|copy ROW"
                io.stdout.line(Style.dim.apply(DisplayWidth.truncate(footer, toWidth: io.columns), enabled: io.useColor))
            }
        }
        return .ok
    }

    /// JSON and JSONL straight from the stored bytes (checked, not decoded), in the order the
    /// command sorted them: the same document the decoded path writes, since likes are stored
    /// in the item schema's key order, without building 10,000 values and encoding them again.
    func writeRaw(_ likes: [LikeCollection.RawLike], format: OutputFormat, io: IO) throws {
        let sort = self.sort
        let order = Array(likes.indices)
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
            // The price keys every item has (before any refresh: no lowest, no refreshedAt).
            let priced = likes[index].canonical ? Self.withPriceKeys(body, price: likes[index].price) : nil
            if let priced {
                body = priced[...]
            }
            if priced == nil {
                // Hand-edited (other key order, missing or extra keys): decode it so that the
                // item has the schema's keys in order, like every other.
                let like = try LikeCollection.decode(likes[index].bytes)
                var listed = PriceView.items([like], book: PriceBook(), history: false, table: false)[0]
                listed.rank = rank + 1
                let item = ItemJSON.object(listed)
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

    /// A stored like's members (after its "{") with `change`, `lowest`, `highest` and `refreshedAt` added
    /// before its "}", as the decoded path writes them when nothing was refreshed; nil when its
    /// last member is not `"likedPrice"` (then it is decoded).
    static func withPriceKeys(_ body: ArraySlice<UInt8>, price: Int?) -> [UInt8]? {
        guard let close = body.lastIndex(of: UInt8(ascii: "}")), let colon = body[..<close].lastIndex(of: UInt8(ascii: ":")) else { return nil }
        let key = Array("\"likedPrice\"".utf8)
        guard colon - body.startIndex >= key.count, body[(colon - key.count)..<colon].elementsEqual(key) else { return nil }
        let value = String(decoding: body[(colon + 1)..<close], as: UTF8.self)
        let liked: Int?
        if value == "null" { liked = nil } else if let number = Int(value) { liked = number } else { return nil }
        let change = PriceView.change(price: price, liked: liked).map { String(format: "%.4f", $0) } ?? "null"
        var out = Array(body[..<close])
        out += Array(",\"change\":\(change),\"lowest\":null,\"highest\":null,\"refreshedAt\":null}".utf8)
        return out
    }
}

/// `shopy likes export`: the document on stdout, or a notice that the file was written.
public struct LikesExportPresenter: Presenter {
    public func present(_ exported: LikesExportCommand.Exported, context: Context) -> ExitCode {
        switch exported {
        case .document(let bytes):
            context.io.stdout.write(bytes: bytes)
        case .written(let count, let file):
            context.diagnostics.notice("exported \(Money.grouped(count)) like\(count == 1 ? "" : "s") to \(file)")
        }
        return .ok
    }
}

/// `shopy likes import`: what was added and kept, as a notice (`--quiet` leaves it out).
public struct LikesImportPresenter: Presenter {
    public func present(_ imported: LikesImportCommand.Imported, context: Context) -> ExitCode {
        context.diagnostics.notice("imported \(Money.grouped(imported.total)) from \(imported.shown): \(Money.grouped(imported.added)) added, \(Money.grouped(imported.kept)) kept (already liked)")
        return .ok
    }
}

/// `shopy likes clear`: how many went and where the backup is (see `ClearedWithBackup`).
public struct LikesClearPresenter: Presenter {
    public func present(_ cleared: (count: Int, backup: String?), context: Context) -> ExitCode {
        ClearedWithBackup.report(cleared.count, ("like", "likes"), backup: cleared.backup, whenEmpty: "no likes to clear",
                                 restore: "shopy likes import", context: context)
    }
}
