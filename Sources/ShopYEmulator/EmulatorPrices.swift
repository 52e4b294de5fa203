import Foundation
import ShopYCore
import ShopYBase

/// Prices that change while the emulator runs, so that `shopy likes refresh` has drops to see.
///
/// `--price-drift`: each time a product is served its price takes one step of a deterministic
/// walk (-2% to +2% of the catalog price, kept within ±40%), chosen by a hash of its productId and
/// how many times it has been served: the same requests see the same prices on every run.
/// `GET /_emulator/price?productId=ID&price=N` sets one product's price (over any drift);
/// `price=gone` leaves it out of every answer; `price=base` returns it to the catalog's.
final class EmulatorPrices: Sendable {
    static let controlPath = "/_emulator/price"

    private struct State {
        var set: [String: Int] = [:]
        var gone: Set<String> = []
        /// Per product: times served and the walk's offset in percent.
        var walk: [String: (served: UInt64, offset: Int)] = [:]
    }

    private let drift: Bool
    private let state = Locked(State())

    init(drift: Bool) {
        self.drift = drift
    }

    /// Rewrites an answer's items: set prices, drift, and products made gone.
    func apply(_ response: inout WireSearchResponse) {
        state.withLock { s in
            if !s.gone.isEmpty {
                let before = response.items.count
                response.items.removeAll { s.gone.contains($0.productId) }
                response.display = response.items.count
                response.total = max(0, response.total - (before - response.items.count))
            }
            for i in response.items.indices {
                let id = response.items[i].productId
                if let price = s.set[id] {
                    response.items[i].lprice = String(price)
                    continue
                }
                guard drift, let text = response.items[i].lprice, let base = Int(text), base > 0 else { continue }
                var entry = s.walk[id] ?? (0, 0)
                entry.served += 1
                entry.offset = min(40, max(-40, entry.offset + Self.step(id, entry.served)))
                s.walk[id] = entry
                let (scaled, overflow) = base.multipliedReportingOverflow(by: 100 + entry.offset)
                if !overflow { response.items[i].lprice = String(max(10, scaled / 100 / 10 * 10)) }
            }
        }
    }

    /// One step of the walk, -2…+2 (percent), from FNV-1a of the id and the count.
    static func step(_ id: String, _ served: UInt64) -> Int {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        var n = served
        for _ in 0..<8 {
            hash = (hash ^ (n & 0xFF)) &* 0x100000001b3
            n >>= 8
        }
        return Int(hash % 5) - 2
    }

    /// `GET /_emulator/price?productId=…&price=N|gone|base`.
    func control(_ params: [FormDecoding.Parameter]) -> Reply {
        func value(_ name: String) -> String? { params.first { $0.name == name && $0.wellFormed }?.value }
        guard let id = value("productId"), !id.isEmpty, let price = value("price") else {
            return APIError(status: 400, code: "400", message: "use /_emulator/price?productId=ID&price=N (or gone, or base)").reply
        }
        let ok = state.withLock { s -> Bool in
            switch price {
            case "gone":
                s.gone.insert(id)
            case "base":
                s.gone.remove(id)
                s.set[id] = nil
            default:
                guard price.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(price), n > 0, n <= Int(Int32.max) else { return false }
                s.gone.remove(id)
                s.set[id] = n
            }
            return true
        }
        guard ok else { return APIError(status: 400, code: "400", message: "price must be a whole number of won above 0, gone or base").reply }
        var body = JSONObject()
        body["ok"] = .bool(true)
        body["productId"] = .string(id)
        body["price"] = .string(price)
        return Reply(response: ServerResponse(status: 200, body: JSONWriter.serialize(.object(body), pretty: false)))
    }
}
