import Foundation
import ShopYCore
import ShopYBase

/// One source as `shopy status` shows it: whether its keys are set (never the keys), whether
/// commands use it without --source, its address, and for Coupang how much of the hour's budget
/// is spent and whether a 429 holds it.
public struct SourceStatus: Sendable, Equatable {
    public var kind: SourceKind
    /// The variables it needs that are not set (empty: its keys are set; the catalog needs none).
    public var missing: [String]
    /// Used by commands without --source.
    public var isDefault: Bool
    /// Its address, credentials redacted (nil for the catalog), or why it is refused.
    public var base: String?
    /// Coupang: requests counted in the last hour, the budget, and the end of a hold.
    public var coupang: CoupangUsage?

    public struct CoupangUsage: Sendable, Equatable {
        public var sent: Int
        public var budget: Int
        public var heldUntil: String?
        public var next: String?
    }

    /// Every source, in `SourceKind`'s order.
    static func all(_ context: Context) -> [SourceStatus] {
        let environment = context.io.environment
        let keys = SourceKeys(environment: environment)
        let defaults = (try? context.sourceKinds(nil).kinds) ?? []
        return SourceKind.allCases.map { kind in
            var status = SourceStatus(kind: kind, missing: keys.missing(kind), isDefault: defaults.contains(kind), base: nil, coupang: nil)
            if kind.isLive {
                do {
                    status.base = URLRedaction.redact(try SourceKeys.base(of: kind, environment: environment).absoluteString)
                } catch {
                    status.base = (error as? ShopyError)?.message
                }
            }
            if kind == .coupang, let credentials = keys.coupang, let budget = try? context.coupangBudget.get(),
               let key = try? CoupangLedger.keyHash(credentials),
               let usage = try? CoupangLedger(directory: context.store.directory).usage(key: key, now: context.io.now(), budget: budget) {
                let now = context.io.now()
                // Said as the errors say it (`WaitDuration`): the same hold reads the same.
                status.coupang = CoupangUsage(sent: usage.sent, budget: budget, heldUntil: usage.heldUntil.map { WaitDuration.until($0, now: now) },
                                              next: usage.next.map { WaitDuration.until($0, now: now) })
            }
            return status
        }
    }

    /// `source 11st      keys set · default · https://openapi.11st.co.kr`.
    var line: String {
        var parts: [String] = []
        switch kind {
        case .catalog:
            parts.append(isDefault ? "default (no live source has its keys)" : "always available offline")
        default:
            parts.append(missing.isEmpty ? "keys set" : "keys not set: " + missing.joined(separator: ", "))
            if isDefault { parts.append("default") }
            if let base { parts.append(base) }
            if let coupang {
                parts.append("\(coupang.sent) of \(coupang.budget) requests this hour")
                if let held = coupang.heldUntil { parts.append("held after a 429 until \(held)") } else if let next = coupang.next { parts.append("budget spent until \(next)") }
            }
        }
        return "source \(kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))" + parts.joined(separator: " · ")
    }

    var json: JSONValue {
        var o = JSONObject()
        o.appendUnchecked("source", .string(kind.rawValue))
        o.appendUnchecked("keys", kind.isLive ? .bool(missing.isEmpty) : .null)
        o.appendUnchecked("missing", .array(missing.map(JSONValue.string)))
        o.appendUnchecked("default", .bool(isDefault))
        o.appendUnchecked("base", .string(orNull: base))
        if let coupang {
            o.appendUnchecked("requestsThisHour", .int(coupang.sent))
            o.appendUnchecked("perHour", .int(coupang.budget))
            o.appendUnchecked("heldUntil", .string(orNull: coupang.heldUntil))
            o.appendUnchecked("nextAllowed", .string(orNull: coupang.next))
        }
        return .object(o)
    }
}
