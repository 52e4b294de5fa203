/// The rules that keep every stored like removable: its productId is the product rule's
/// (`ProductID`: 1 to 32 ASCII digits, alone or after `11st:` or `coupang:`, as bytes, no escapes), and no id is listed twice in a
/// snapshot or liked twice in one journal transaction.
import ShopYBase

extension LikeCollection {
    /// Whether a productId JSON string (its quotes included) is a usable id once decoded (1 to
    /// `ProductID.maxLength` ASCII digits, bare or namespaced; a hand-written `"3\u00334"` is 334).
    static func isProductID(quoted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard quoted.count >= 2 else { return false }
        let bytes = UnsafeBufferPointer(rebasing: quoted[1..<(quoted.count - 1)])
        if bytes.contains(UInt8(ascii: "\\")) {
            guard case .string(let id)? = try? JSONParser.parse(quoted) else { return false }
            return ProductID.usable(id) == id
        }
        return ProductID.isUsable(bytes)
    }

    /// The first id found a second time: the id and the positions of both, or nil.
    static func firstDuplicate(_ ids: [String]) -> (id: String, first: Int, second: Int)? {
        var seen: [String: Int] = [:]
        seen.reserveCapacity(ids.count)
        for (i, id) in ids.enumerated() {
            if let first = seen.updateValue(i, forKey: id) { return (id, first, i) }
        }
        return nil
    }
}
