import ShopYCore

/// `widget open`'s outcome: which opener took the link, or none did (the presenter prints the
/// link then). The opening itself is the one loop of `open` and `copy` (`LinkOpener`).
public enum LinkOpening {
    public enum Outcome: Equatable, Sendable {
        case opened(link: String, by: String)
        case noOpener(link: String)
    }

    /// Hands the checked link to the context's opener (`LinkTargets.opener`, as `shopy open` does).
    static func open(_ link: String, context: Context) -> Outcome {
        LinkTargets.opener(context).open(link).map { .opened(link: link, by: $0) } ?? .noOpener(link: link)
    }
}
