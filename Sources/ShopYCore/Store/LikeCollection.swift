import Foundation
import ShopYBase

/// One change to the likes, as the journal records it.
package enum LikeChange: Sendable {
    case add(LikeCollection.Element)
    case remove(String)

    var id: String {
        switch self {
        case .add(let element): return element.id
        case .remove(let id): return id
        }
    }
}

/// The likes: a list of likes, one a product, oldest first.
///
/// Read from the store, a collection is lazy: it stands on the files (`LikesBase`: the snapshot,
/// its id index and the journal) and answers `contains`, `add`, `remove` and `like(id)` from the
/// index and the journal without loading the other likes; the changes it records are what a
/// commit appends to the journal. Whatever needs every like (`all`, `rawLikes`, `count`, `ids`,
/// the stored form) loads the snapshot once, checking every like, and replays the changes.
/// Made in memory (`LikeCollection()`, `decodeStored`), it is a plain list; storing one
/// replaces the whole store.
public struct LikeCollection: RawStorable, Codable, Sendable {
    package struct Element: Sendable {
        var id: String
        package var bytes: ArraySlice<UInt8>
        /// What the load-time check found (and listings sort by).
        package var checked: RawLike
    }

    /// In memory: the likes. On the files: unused (see `base`).
    private var elements: [Element] = []
    /// How many times each id is in `elements` (a hand-edited file may hold one twice).
    private var counts: [String: Int] = [:]
    /// The files this collection stands on, or nil for one made in memory.
    private(set) var base: LikesBase?
    /// The changes made since it was read from the files, in order.
    private(set) var changes: [LikeChange] = []
    /// With a base: what the changes left for each id they touched (nil: removed).
    private var overlay: [String: Element?] = [:]

    public init() {}

    init(elements: [Element]) {
        self.elements = elements
        for element in elements { counts[element.id, default: 0] += 1 }
    }

    init(base: LikesBase) {
        self.base = base
    }

    /// Every element: the base's (loaded once, checked) with the changes replayed.
    private var materialized: [Element] {
        guard let base else { return elements }
        return LikeCollection.replay(base.allElements(), changes, inElements: base.mayBeInAll)
    }

    public var count: Int { materialized.count }
    public var isEmpty: Bool { base == nil ? elements.isEmpty : materialized.isEmpty }
    public var ids: [String] { materialized.map(\.id) }

    public func contains(_ id: String) -> Bool {
        guard let base else { return counts[id] != nil }
        if let changed = overlay[id] { return changed != nil }
        return base.contains(id)
    }

    /// The first like `add` refused (see `insert`): a collection holding one is not stored, so a
    /// caller that does not look cannot lose a like it removed to replace it.
    private(set) var refused: StoredValueError?

    /// Adds a like unless its product is liked already; true when added. A like that the store
    /// would not read back is not added (see `insert`) and the collection then refuses to be stored.
    @discardableResult
    public mutating func add(_ like: Like) -> Bool {
        do {
            return try insert(like)
        } catch {
            refused = refused ?? error
            return false
        }
    }

    /// Adds a like unless its product is liked already; true when added. The like's stored form is
    /// checked by the rules the reader applies to a journal line (`element(from:)`), so that what
    /// the store would call damage on the next read — a negative productType from a hostile
    /// server, an id that is not a usable productId — is refused here, before anything is written.
    public mutating func insert(_ like: Like) throws(StoredValueError) -> Bool {
        guard !contains(like.product.productId) else { return false }
        let element = try LikeCollection.element(from: ArraySlice(JSONWriter.serialize(like.json)))
        guard element.id == like.product.productId else { throw StoredValueError("has a \"productId\" that does not read back") }
        return add(element: element)
    }

    /// Adds a checked element (one line of JSON in the stored shape) unless its id is liked.
    @discardableResult
    package mutating func add(element: Element) -> Bool {
        guard !contains(element.id) else { return false }
        if base != nil {
            overlay[element.id] = .some(element)
            changes.append(.add(element))
        } else {
            elements.append(element)
            counts[element.id, default: 0] += 1
        }
        return true
    }

    /// Removes the like of `id`; true when there was one. Decoding is not needed to remove, so a
    /// like that no longer decodes can still be removed; a hand-edited file may hold an id twice,
    /// and afterwards none is left.
    @discardableResult
    public mutating func remove(_ id: String) -> Bool {
        guard contains(id) else { return false }
        if base != nil {
            overlay[id] = .some(nil)
            changes.append(.remove(id))
        } else {
            elements.removeAll { $0.id == id }
            counts[id] = nil
        }
        return true
    }

    /// Empties the collection: stored, it replaces the whole store (an empty snapshot).
    public mutating func removeAll() {
        self = LikeCollection()
    }

    /// The like of `id`, decoded.
    public func like(_ id: String) throws(StoredValueError) -> Like? {
        let element: Element?
        if let base {
            if let changed = overlay[id] { element = changed } else { element = base.element(id) }
        } else {
            element = elements.first { $0.id == id }
        }
        guard let element else { return nil }
        return try LikeCollection.decode(element.bytes)
    }

    /// Every like, decoded, in stored order (oldest first).
    public func all() throws(StoredValueError) -> [Like] {
        let elements = materialized
        var likes: [Like] = []
        likes.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            do {
                likes.append(try LikeCollection.decode(element.bytes))
            } catch {
                throw StoredValueError("item \(i + 1) \(error.problem)")
            }
        }
        return likes
    }

    /// Every like as checked bytes, in stored order, without building values: `likes --json`
    /// copies them to the output (re-indented), which is what keeps it fast at 100,000 likes.
    /// The checks are those of `Like(json:)`, so a like that would not decode is reported the
    /// same way here.
    public func rawLikes() -> [RawLike] { materialized.map(\.checked) }

    /// `rawLikes()` with each like's productId (what a listing of the likes remembers).
    public func rawLikesWithIDs() -> [(id: String, like: RawLike)] { materialized.map { ($0.id, $0.checked) } }

    /// The elements in stored order (what a compaction writes).
    func storedElements() -> [Element] { materialized }

    /// `elements` after `changes`, in order: an add appends (only an absent id is ever added), a
    /// remove takes every like of its id added before it. Linear, however many changes.
    /// `inElements` may say that an id is surely not among `elements` (the index knows), which
    /// spares a pass over 100,000 likes for an unlike of a like made since the snapshot.
    package static func replay(_ elements: [Element], _ changes: [LikeChange], inElements: (String) -> Bool = { _ in true }) -> [Element] {
        guard !changes.isEmpty else { return elements }
        var lastRemoval: [String: Int] = [:]
        var removesFromElements = false
        for (i, change) in changes.enumerated() {
            if case .remove(let id) = change {
                lastRemoval[id] = i
                removesFromElements = removesFromElements || inElements(id)
            }
        }
        var result = removesFromElements ? elements.filter { lastRemoval[$0.id] == nil } : elements
        for (i, change) in changes.enumerated() {
            if case .add(let element) = change, (lastRemoval[element.id] ?? -1) < i { result.append(element) }
        }
        return result
    }

    package static func decode(_ bytes: ArraySlice<UInt8>) throws(StoredValueError) -> Like {
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw StoredValueError("is not valid JSON: \(error)")
        }
        return try Like(json: json)
    }

    /// A stored like as its JSON bytes, checked to have the shape `Like(json:)` accepts, with what
    /// listings sort by.
    public struct RawLike: Sendable {
        public var bytes: ArraySlice<UInt8>
        public var likedAt: ArraySlice<UInt8>
        public var price: Int?
        /// Exactly the stored shape shopy writes: the schema's keys, in order, nothing else.
        /// Only such likes can be copied to the output as they are.
        public var canonical: Bool
        /// likedAt as a number when it has shopy's form (see `timestampKey`), for sorting.
        public var likedAtKey: Int?
        /// Surely within what an answer's fields may bring (`FieldLimits`, at most
        /// `FieldLimits.categories` categories); false when a field may be past its bound.
        public var withinFieldLimits = true
    }

    /// The stored form: a JSON array, one like a line.
    public func encodeStored() -> [UInt8] {
        let elements = materialized
        var out: [UInt8] = []
        out.reserveCapacity(elements.reduce(4) { $0 + $1.bytes.count + 2 })
        out.append(UInt8(ascii: "["))
        for (i, element) in elements.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(0x0A)
            out.append(contentsOf: element.bytes)
        }
        out.append(contentsOf: elements.isEmpty ? [] : [0x0A])
        out.append(UInt8(ascii: "]"))
        return out
    }

    // MARK: Codable (the store itself uses the raw codec)

    public init(from decoder: Decoder) throws {
        for like in try decoder.singleValueContainer().decode([Like].self) { add(like) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(try all())
    }
}
