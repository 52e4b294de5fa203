import ShopYCore
import ShopYBase
/// Counted nouns in messages: `1 change`, `2 changes`, `1,024 likes`.
enum Plural {
    /// `count` grouped by thousands and the noun, with `s` (or `plural`) unless it is one.
    static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(Money.grouped(count)) " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
