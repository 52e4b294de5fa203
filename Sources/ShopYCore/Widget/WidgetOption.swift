/// One thing a widget can show, as `shopy widget options` lists it: an id the user picks with
/// `shopy widget configure --show`, a title, and whether it can be shown now (and why not).
public struct WidgetOption: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// How many likes there are (and how many dropped in price, once tracked).
        case likes
        /// One liked product: title, price, change since liked.
        case like
        /// Likes below their liked price (needs price tracking).
        case priceDrops = "price-drops"
        /// A popular section: its top items.
        case popular
        /// A recent search: its top result.
        case history
        /// The top keyword or category of the DataLab trends.
        case trends
        /// The network and API status.
        case status
    }

    public var id: String
    public var kind: Kind
    /// The product id, section keyword or history query the option is about.
    public var subject: String?
    public var title: String
    public var available: Bool
    /// Why it is unavailable (nil when available).
    public var reason: String?

    public init(kind: Kind, subject: String? = nil, title: String, available: Bool = true, reason: String? = nil) {
        self.id = WidgetOption.id(kind, subject)
        self.kind = kind
        self.subject = subject
        self.title = title
        self.available = available
        self.reason = reason
    }

    /// `status`, `likes`, `price-drops`, `trends`, `like:80285861246`, `popular:신발`, `history:방충망`.
    public static func id(_ kind: Kind, _ subject: String?) -> String {
        subject.map { kind.rawValue + ":" + $0 } ?? kind.rawValue
    }
}
