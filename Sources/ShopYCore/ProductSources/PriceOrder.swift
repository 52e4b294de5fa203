import ShopYBase
/// Products ordered by price, as `asc`/`dsc` ask of a merged listing or of Coupang's 10 items:
/// unknown prices last, and the given order kept among equal ones.
enum PriceOrder {
    static func sorted(_ items: [Product], ascending: Bool) -> [Product] {
        items.enumerated().sorted { a, b in
            switch (a.element.price, b.element.price) {
            case let (x?, y?) where x != y: return ascending ? x < y : x > y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.offset < b.offset
            }
        }.map(\.element)
    }
}
