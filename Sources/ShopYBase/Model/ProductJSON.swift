/// The JSON form of a product: the schema docs/json.md documents, for listings and for the stored likes.
public enum ProductJSON {
    /// The product's members in the schema's order: productId … image. Likes are stored in the
    /// same shape.
    public static func append(_ p: Product, to o: inout JSONObject) {
        o.appendUnchecked("productId", .string(p.productId))
        o.appendUnchecked("title", .string(p.title))
        o.appendUnchecked("price", .int(orNull: p.price))
        o.appendUnchecked("highPrice", .int(orNull: p.highPrice))
        o.appendUnchecked("mall", .string(orNull: p.mall))
        o.appendUnchecked("brand", .string(orNull: p.brand))
        o.appendUnchecked("maker", .string(orNull: p.maker))
        o.appendUnchecked("categories", .array(p.categories.map(JSONValue.string)))
        o.appendUnchecked("productType", .int(orNull: p.productType))
        o.appendUnchecked("link", .string(orNull: p.link))
        o.appendUnchecked("image", .string(orNull: p.image))
    }
}
