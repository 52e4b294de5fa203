import ShopYBase

/// What the local catalog keeps of an item's fields: what the mapper reads of them
/// (`FieldLimits.bound`, the limits answers from the network have), whatever an import or a
/// listing brings. A text past its bound is cut, a link or number that the mapper would drop is
/// left out; the item is kept.
extension CatalogRawRecords.Field {
    /// How the mapper reads this field; nil for the productId (checked on its own) and shopy's
    /// own three fields.
    var raw: FieldLimits.RawField? {
        switch self {
        case .title: return .text(FieldLimits.title)
        case .mallName, .brand, .maker, .category1, .category2, .category3, .category4: return .text(FieldLimits.shopText)
        case .link, .image: return .url
        case .lprice, .hprice, .productType: return .integer
        case .productId, .firstSeen, .updated, .origin: return nil
        }
    }
}

extension CatalogRawRecords {
    /// Bounds record `r`'s fields: a cut text is copied into the store, a dropped field absent.
    mutating func bound(_ r: Int) {
        for field in Field.allCases {
            guard let raw = field.raw else { continue }
            let span = self[r, field]
            guard !span.isAbsent else { continue }
            switch FieldLimits.bound(span.buffer, as: raw) {
            case .keep: break
            case .cut(let text): self[r, field] = store.copy(text)
            case .drop: self[r, field] = .absent
            }
        }
    }
}

extension WireItem {
    /// The item with each field bounded as `CatalogRawRecords.bound` bounds a record's.
    var boundedForCatalog: WireItem {
        func bounded(_ value: String?, _ field: CatalogRawRecords.Field) -> String? {
            guard let value, let raw = field.raw else { return value }
            return FieldLimits.bound(value, as: raw)
        }
        var item = self
        item.title = bounded(title, .title) ?? ""
        item.link = bounded(link, .link)
        item.image = bounded(image, .image)
        item.lprice = bounded(lprice, .lprice)
        item.hprice = bounded(hprice, .hprice)
        item.mallName = bounded(mallName, .mallName)
        item.productType = bounded(productType, .productType)
        item.brand = bounded(brand, .brand)
        item.maker = bounded(maker, .maker)
        item.category1 = bounded(category1, .category1)
        item.category2 = bounded(category2, .category2)
        item.category3 = bounded(category3, .category3)
        item.category4 = bounded(category4, .category4)
        return item
    }
}
