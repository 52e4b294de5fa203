import ShopYBase

/// What `likes import` holds a like to beyond its shape: the bounds an answer from the network
/// has (`FieldLimits`, as `ProductMapper` applies them) and a likedAt as shopy writes it.
extension Like {
    /// The like with every field within the bounds an answer's field has: the title and each
    /// shop text (mall, brand, maker, each category) cut as the mapper cuts them, at most
    /// `FieldLimits.categories` categories (an answer's levels), a link or image past
    /// `FieldLimits.url` bytes left out (a cut URL would point elsewhere). A like within them
    /// is unchanged.
    public func bounded() -> Like {
        var like = self
        var p = like.product
        p.title = FieldLimits.cut(p.title, to: FieldLimits.title)
        p.mall = p.mall.map { FieldLimits.cut($0, to: FieldLimits.shopText) }
        p.brand = p.brand.map { FieldLimits.cut($0, to: FieldLimits.shopText) }
        p.maker = p.maker.map { FieldLimits.cut($0, to: FieldLimits.shopText) }
        p.categories = p.categories.prefix(FieldLimits.categories).map { FieldLimits.cut($0, to: FieldLimits.shopText) }
        p.link = p.link.flatMap { FieldLimits.keepsURL($0.utf8) ? $0 : nil }
        p.image = p.image.flatMap { FieldLimits.keepsURL($0.utf8) ? $0 : nil }
        like.product = p
        return like
    }

    /// Whether `text` is a time as shopy writes likedAt (`2026-11-29T20:33:43Z`: UTC, whole
    /// seconds, a real day): what listings sort by and the widget reads.
    public static func isStoredTime(_ text: String) -> Bool {
        // 20 bytes of that form naming a real moment; and no leap second (23:59:60), which
        // `timestamp` never writes.
        guard WidgetClock.parse(text) != nil else { return false }
        return Array(text.utf8)[17] < UInt8(ascii: "6")
    }

    /// The problem of a likedAt that is not such a time (nil for an empty one: the import's
    /// time is given).
    public static func likedAtProblem(_ text: String) -> String? {
        guard !text.isEmpty, !isStoredTime(text) else { return nil }
        let shown = FieldLimits.cut(Sanitizer.clean(text), to: 40)
        return "has a \"likedAt\" that is not a UTC time as shopy writes it (yyyy-mm-ddThh:mm:ssZ): '\(shown)'"
    }

    /// The problem of a number past Int's range in field `key`.
    static func outOfRange(_ key: String) -> String {
        "has a \"\(key)\" out of range (the largest is \(Int.max))"
    }
}
