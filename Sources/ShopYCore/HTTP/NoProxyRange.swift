#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `no_proxy` entry in CIDR notation (`10.0.0.0/8`, `fd00::/8`), as curl reads it since 7.86:
/// an IP-literal host in that range goes direct. A host name never matches a range.
enum NoProxyRange {
    /// Whether `pattern` (an entry with a `/`) covers `host` (lowercased, without brackets); nil
    /// when `pattern` is not an address and a prefix length of its family.
    static func covers(host: String, pattern: String) -> Bool? {
        let parts = pattern.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let network = address(String(parts[0])),
              !parts[1].isEmpty, parts[1].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), parts[1].utf8.count <= 3,
              let bits = Int(parts[1]), bits <= network.count * 8 else { return nil }
        guard let target = address(host), target.count == network.count else { return false }
        let whole = bits / 8, rest = bits % 8
        if target[..<whole] != network[..<whole] { return false }
        guard rest > 0 else { return true }
        let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - rest))
        return target[whole] & mask == network[whole] & mask
    }

    /// The bytes of an IPv4 (4) or IPv6 (16) literal, or nil.
    static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }
}
