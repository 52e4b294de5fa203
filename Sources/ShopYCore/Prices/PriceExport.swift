import Foundation
import ShopYBase

/// The price history and alerts in `likes export` (a `"prices"` member beside `"likes"`), and
/// their import: an export without them (from an older shopy) imports as before.
package enum PriceExport {
    /// `,\n"prices":{…}` or nothing when there is no record.
    package static func member(_ book: PriceBook) -> [UInt8] {
        guard !book.isEmpty else { return [] }
        return Array(",\n\"prices\":".utf8) + book.encodeStored()
    }

    /// The `"prices"` of an export, checked; nil when it has none. A damaged one rejects the
    /// whole import, as a damaged like does.
    package static func parse(_ bytes: [UInt8], path: String) throws(StoreError) -> PriceBook? {
        guard bytes.first(where: { $0 > 0x20 }) == UInt8(ascii: "{") else { return nil }
        guard let document = try? SuiteDocument.parse(bytes, path: path, suite: .prices), let raw = document.rawValue("prices") else { return nil }
        do {
            return try PriceBook.decodeStored(raw)
        } catch {
            throw .invalidImport(path: path, problem: "its \"prices\" \(error.problem)")
        }
    }

    /// Records for imported likes that have none yet; existing records are kept as they are
    /// (like the likes themselves). A Coupang like keeps no price history (Coupang's terms), so
    /// of its record only the alert, the user's own rule, is taken.
    package static func merge(_ imported: PriceBook, into settings: Settings, liked: Set<String>) {
        var book = settings.prices
        var changed = false
        for (id, record) in imported.records where liked.contains(id) && book[id] == nil {
            var record = record
            if ProductID.namespace(of: id) == .coupang {
                guard let alert = record.alert else { continue }
                record = PriceRecord()
                record.alert = alert
            }
            book[id] = record
            changed = true
        }
        if changed { settings.prices = book }
    }
}
