import Foundation
import ShopYBase

/// The Naver Shopping categories shopy knows offline: the 12 top-level ones and 4,967 leaves
/// (Fixtures/shopping-categories.json, MIT: Fixtures/shopping-categories.LICENSE), and how a
/// name or code on the command line becomes one of them.
public struct ShoppingCategory: Equatable, Hashable, Sendable {
    public var code: String
    /// Level 1 first; one element for a top-level category; `[code]` for a code shopy does not know.
    public var path: [String]

    public init(code: String, path: [String]) {
        self.code = code
        self.path = path
    }

    /// The last path element: what a table row shows.
    public var name: String { path.last ?? code }

    public var pathText: String { path.joined(separator: " > ") }
}

public struct CategoryTable: Sendable {
    public let topLevel: [ShoppingCategory]
    public let leaves: [ShoppingCategory]
    private let byCode: [String: ShoppingCategory]
    /// The leaves' paths lowercased, once (lookups are case-insensitive).
    private let loweredPaths: [[String]]

    /// The top-level codes the official guide and public code use. 도서 is 50005542 (the
    /// 50000011 seen once is unconfirmed); 면세점 has no leaves in the table.
    public static let topLevelCategories: [ShoppingCategory] = [
        ("50000000", "패션의류"), ("50000001", "패션잡화"), ("50000002", "화장품/미용"), ("50000003", "디지털/가전"),
        ("50000004", "가구/인테리어"), ("50000005", "출산/육아"), ("50000006", "식품"), ("50000007", "스포츠/레저"),
        ("50000008", "생활/건강"), ("50000009", "여가/생활편의"), ("50000010", "면세점"), ("50005542", "도서"),
    ].map { ShoppingCategory(code: $0.0, path: [$0.1]) }

    public init(topLevel: [ShoppingCategory] = CategoryTable.topLevelCategories, leaves: [ShoppingCategory]) {
        self.topLevel = topLevel
        self.leaves = leaves
        var byCode: [String: ShoppingCategory] = [:]
        for category in topLevel + leaves where byCode[category.code] == nil { byCode[category.code] = category }
        self.byCode = byCode
        self.loweredPaths = leaves.map { $0.path.map { $0.lowercased() } }
    }

    /// The embedded table, parsed once on first use.
    public static let embedded: CategoryTable = {
        do {
            return try CategoryTable(json: Array(embeddedCategoriesJSON.utf8))
        } catch {
            fatalError("the embedded category table does not parse: \(error)")
        }
    }()

    /// A JSON array of `{"code": "50003854", "path": ["패션잡화", …]}`.
    public init(json bytes: [UInt8]) throws(WireDecodingError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw WireDecodingError(error.description) }
        guard let array = value.arrayValue else { throw WireDecodingError("the category table is not an array") }
        var leaves: [ShoppingCategory] = []
        leaves.reserveCapacity(array.count)
        for (i, element) in array.enumerated() {
            guard let code = element["code"]?.stringValue, CategoryTable.isCode(code),
                  let path = element["path"]?.arrayValue?.compactMap(\.stringValue), !path.isEmpty else {
                throw WireDecodingError("category \(i) is not {\"code\", \"path\"}")
            }
            leaves.append(ShoppingCategory(code: code, path: path))
        }
        self.init(leaves: leaves)
    }

    /// The top-level categories that have leaves in the table: what `trends categories` compares by default.
    public var defaultComparison: [ShoppingCategory] {
        let present = Set(leaves.compactMap(\.path.first))
        return topLevel.filter { present.contains($0.name) }
    }

    /// `defaultComparison` of the embedded table without parsing it (a test checks they agree).
    public static let defaultTopLevel = topLevelCategories.filter { $0.code != "50000010" }

    /// A top-level code or name found without parsing the embedded table (the common case
    /// stays fast); nil for anything else.
    public static func topLevelLookup(_ text: String) -> ShoppingCategory? {
        let query = normalize(text)
        return topLevelCategories.first { $0.code == query || $0.name.lowercased() == query }
    }

    public func category(code: String) -> ShoppingCategory? { byCode[code] }

    /// A code is 1 to 12 ASCII digits (Naver's cat_id).
    public static func isCode(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 12 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    // MARK: - Lookup

    public enum Lookup: Equatable, Sendable {
        case found(ShoppingCategory)
        /// More than one leaf fits: all of them, in table order.
        case ambiguous([ShoppingCategory])
        /// Nothing fits: the closest names, best first (maybe none).
        case unknown(closest: [ShoppingCategory])
    }

    /// A code (known or not: DataLab accepts any cat_id), a top-level name, or a part of a leaf
    /// path whose segments are separated by `/` or `>` (`러닝화`, `남성신발/운동화/러닝화`).
    /// Case-insensitive. One category only when no other bears the name: a leaf named by the
    /// query is ambiguous with the leaves under branches of that name (`운동화` is a leaf under
    /// 출산/육아 and a branch under both 남성신발 and 여성신발), the leaves it names first.
    public func lookup(_ text: String) -> Lookup {
        let query = CategoryTable.normalize(text)
        if CategoryTable.isCode(query) {
            return .found(byCode[query] ?? ShoppingCategory(code: query, path: [query]))
        }
        if let top = topLevel.first(where: { $0.name.lowercased() == query }) { return .found(top) }
        var ending: [ShoppingCategory] = []
        var passing: [ShoppingCategory] = []
        for (leaf, path) in zip(leaves, loweredPaths) {
            switch CategoryTable.match(query, path) {
            case .ending: ending.append(leaf)
            case .passing: passing.append(leaf)
            case .none: break
            }
        }
        let matches = ending + passing
        if matches.count == 1 { return .found(matches[0]) }
        if !matches.isEmpty { return .ambiguous(matches) }
        return .unknown(closest: closest(to: query))
    }

    /// `--list [WORD]`: the categories whose path contains WORD (all without one), top level first.
    public func list(_ word: String?) -> [ShoppingCategory] {
        guard let word, !word.trimmingASCIIWhitespace().isEmpty else { return topLevel + leaves }
        let query = CategoryTable.normalize(word)
        if CategoryTable.isCode(query) { return (topLevel + leaves).filter { $0.code.hasPrefix(query) } }
        return (topLevel + leaves).filter { $0.path.joined(separator: "/").lowercased().contains(query) }
    }

    /// The branch `text` names in `category`'s path (the path up to the end of the match) when
    /// the text passes through it; nil when it names the leaf itself or does not match.
    public func branch(of category: ShoppingCategory, named text: String) -> [String]? {
        let query = CategoryTable.normalize(text)
        let lowered = category.path.map { $0.lowercased() }
        guard CategoryTable.match(query, lowered) == .passing else { return nil }
        for end in lowered.indices.dropLast() {
            for start in 0...end where lowered[start...end].joined(separator: "/") == query { return Array(category.path[...end]) }
        }
        return nil
    }

    enum Match { case ending, passing, none }

    /// Whether `query` is a run of whole segments of `lowered` (a lowercased path, joined by "/"),
    /// ending at the leaf or not.
    static func match(_ query: String, _ lowered: [String]) -> Match {
        var result = Match.none
        for i in lowered.indices {
            var joined = ""
            for j in i..<lowered.count {
                joined += (j == i ? "" : "/") + lowered[j]
                if joined.utf8.count > query.utf8.count { break }
                if joined == query {
                    if j == lowered.count - 1 { return .ending }
                    result = .passing
                }
            }
        }
        return result
    }

    /// Lowercased, trimmed, with ` > `, `>` and ` / ` written as `/`.
    static func normalize(_ text: String) -> String {
        let parts = text.lowercased().split(omittingEmptySubsequences: false) { $0 == ">" || $0 == "/" }
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "/").trimmingASCIIWhitespace()
    }

    /// Up to 5 categories whose names contain the query, else whose names are nearest by edit distance.
    func closest(to query: String) -> [ShoppingCategory] {
        let last = query.split(separator: "/").last.map(String.init) ?? query
        guard !last.isEmpty else { return [] }
        let all = topLevel + leaves
        let containing = all.filter { $0.name.lowercased().contains(last) }
        if !containing.isEmpty { return Array(containing.prefix(5)) }
        let limit = max(1, last.count / 2)
        let length = last.count
        // The distance is at least the difference in length: a name that far off is never
        // scored (a very long word against every name would otherwise take seconds).
        let scored = all.compactMap { category -> (ShoppingCategory, Int)? in
            let name = category.name.lowercased()
            guard abs(name.count - length) <= limit else { return nil }
            return (category, Suggest.editDistance(last, name))
        }
        return Array(scored.filter { $0.1 <= limit }.sorted { $0.1 < $1.1 }.prefix(5).map(\.0))
    }
}
