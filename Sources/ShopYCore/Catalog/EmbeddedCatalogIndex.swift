import CShopYShim

/// The embedded catalog as searches read it: the items' JSON in place (a static literal) and the
/// index `Scripts/embed-catalog.py` precomputed from them, a C array in the shim target read in
/// place too. Nothing is parsed, built or decoded at start, and only the page's items are ever
/// decoded.
enum EmbeddedCatalog {
    static let part = CatalogPart(json: json, index: index)

    static let json = MappedBytes(
        buffer: UnsafeRawBufferPointer(start: embeddedCatalogJSON.utf8Start, count: embeddedCatalogJSON.utf8CodeUnitCount),
        release: {})

    /// The precomputed index's bytes, as the binary holds them (read-only, for the life of the
    /// process).
    static var indexBytes: UnsafeRawBufferPointer {
        var length: UInt = 0
        let base = cshopy_embedded_catalog_index(&length)
        return UnsafeRawBufferPointer(start: base, count: Int(length))
    }

    static let index: CatalogIndex = {
        guard let index = try? CatalogIndex(bytes: indexBytes, release: {}) else {
            fatalError("the embedded catalog's index is not a catalog index: run python3 Scripts/embed-catalog.py")
        }
        return index
    }()
}
