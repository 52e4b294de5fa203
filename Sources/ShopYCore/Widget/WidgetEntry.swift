import Foundation
import ShopYBase


/// One shown item of an entry.
public struct WidgetItem: Equatable, Sendable {
    public enum Tone: String, Sendable, CaseIterable {
        case normal, good, warning, bad, muted
    }

    /// The option it shows (`popular:신발`).
    public var optionID: String
    public var kind: WidgetOption.Kind
    /// For the small family and bars: a few words (`♥ 12`, `● online`). Network text inside is
    /// raw; each format sanitizes it for its protocol.
    public var short: String
    /// For the medium family and menus: one line.
    public var line: String
    /// The link `shopy widget open N` opens (checked http/https when used).
    public var link: String?
    public var tone: Tone
    /// When the Coupang results it shows were fetched (nil: it shows none). Coupang's terms let
    /// an app keep them an hour (`WidgetCoupangExpiry`).
    public var coupangFetchedAt: Date?

    public init(optionID: String, kind: WidgetOption.Kind, short: String, line: String, link: String? = nil, tone: Tone = .normal,
                coupangFetchedAt: Date? = nil) {
        self.optionID = optionID
        self.kind = kind
        self.short = short
        self.line = line
        self.link = link
        self.tone = tone
        self.coupangFetchedAt = coupangFetchedAt
    }
}

/// What the widget shows at one time: a date and the items, in the configured order.
public struct WidgetEntry: Equatable, Sendable {
    public enum Kind: String, Sendable {
        /// From the store and the last refresh.
        case current
        /// Before any data exists: a redacted sample.
        case placeholder
        /// The gallery sample.
        case snapshot
        /// The store cannot be read: a short line, and the error's class.
        case failure
    }

    public var date: Date
    public var kind: Kind
    public var items: [WidgetItem]
    /// For `failure`: the error's class (`store-damaged`, `store-unsafe`, `store-io`, `store-newer`).
    public var errorClass: String?
    /// For `failure`: the short line shown in place of the items.
    public var message: String?
    /// True when a refresh is due or running, so what is shown may be old.
    public var stale: Bool

    public init(date: Date, kind: Kind = .current, items: [WidgetItem], errorClass: String? = nil, message: String? = nil, stale: Bool = false) {
        self.date = date
        self.kind = kind
        self.items = items
        self.errorClass = errorClass
        self.message = message
        self.stale = stale
    }

    /// The redacted sample shown before any data exists.
    public static func placeholder(at date: Date) -> WidgetEntry {
        WidgetEntry(date: date, kind: .placeholder, items: [
            WidgetItem(optionID: "status", kind: .status, short: "● ···", line: "● status ···", tone: .muted),
            WidgetItem(optionID: "likes", kind: .likes, short: "♥ ··", line: "♥ ·· likes", tone: .muted),
            WidgetItem(optionID: "popular", kind: .popular, short: "★ ·····", line: "★ ····· ·····", tone: .muted),
        ])
    }

    /// The gallery sample: what a configured widget looks like.
    public static func snapshot(at date: Date) -> WidgetEntry {
        WidgetEntry(date: date, kind: .snapshot, items: [
            WidgetItem(optionID: "status", kind: .status, short: "● online", line: "● online · API answering", tone: .good),
            WidgetItem(optionID: "likes", kind: .likes, short: "♥ 12", line: "♥ 12 likes", tone: .normal),
            WidgetItem(optionID: "price-drops", kind: .priceDrops, short: "▼2", line: "▼ 2 likes cheaper than when liked", tone: .good),
            WidgetItem(optionID: "popular:고양이", kind: .popular, short: "★ 고양이: 캣타워", line: "★ 고양이 1. 캣타워 대형 · 59,000원",
                       link: "https://search.shopping.naver.com/", tone: .normal),
        ])
    }

    /// The store cannot be read: a short, sane line; the bar keeps its slot.
    public static func failure(_ error: StoreError, at date: Date) -> WidgetEntry {
        let errorClass: String
        switch error {
        case .damaged: errorClass = "store-damaged"
        case .newerSchema: errorClass = "store-newer"
        case .unsafeFile: errorClass = "store-unsafe"
        case .io: errorClass = "store-io"
        case .invalidImport, .notFound, .unusableTarget, .unstorable: errorClass = "store-error"
        }
        let message = errorClass == "store-newer" ? "shopy: store is newer — upgrade shopy" : "shopy: store damaged — run shopy doctor"
        return WidgetEntry(date: date, kind: .failure, items: [], errorClass: errorClass, message: message)
    }
}
