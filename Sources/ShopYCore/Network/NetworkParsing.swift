/// Pure parsers for the Linux files the path is read from, so that they are tested from
/// fixtures (Fixtures/network/) rather than from whatever machine runs the tests.
public enum RouteTable {
    // Route flags, from <linux/route.h> (same values in /proc/net/route and ipv6_route).
    static let rtfUp: UInt32 = 0x0001
    static let rtfReject: UInt32 = 0x0200

    /// Parses /proc/net/route:
    ///
    ///     Iface  Destination  Gateway   Flags  RefCnt  Use  Metric  Mask      MTU  Window  IRTT
    ///     eth0   00000000     010200C0  0003   0       0    0       00000000  0    0       0
    ///
    /// Addresses are the kernel's 32-bit values printed in hex in host byte order, so their
    /// bytes in memory are the address in network order. Lines that do not parse are skipped.
    public static func parseIPv4(_ text: String) -> [Route] {
        var routes: [Route] = []
        for line in text.split(separator: "\n") {  // the header line fails to parse and is skipped
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 8,
                  let destination = UInt32(fields[1], radix: 16), let gateway = UInt32(fields[2], radix: 16),
                  let flags = UInt32(fields[3], radix: 16), let metric = UInt32(fields[6]),
                  let mask = UInt32(fields[7], radix: 16) else { continue }
            routes.append(Route(family: .ipv4, interface: String(fields[0]), destination: ipv4(destination),
                                prefixLength: mask.nonzeroBitCount, gateway: gateway == 0 ? nil : ipv4(gateway),
                                metric: metric, isUp: flags & rtfUp != 0, isReject: flags & rtfReject != 0))
        }
        return routes
    }

    /// Parses /proc/net/ipv6_route, one route a line, no header:
    ///
    ///     dest(32 hex) dest_plen src src_plen next_hop metric refcnt use flags iface
    ///
    /// Every number but the addresses is hex. The table always holds an `unreachable` default
    /// on lo (RTF_REJECT); it is kept here, marked as a reject route, and ignored by `evaluate`.
    public static func parseIPv6(_ text: String) -> [Route] {
        var routes: [Route] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 10,
                  let destination = bytes(hex: fields[0]), destination.count == 16,
                  let prefix = Int(fields[1], radix: 16),
                  let nextHop = bytes(hex: fields[4]), nextHop.count == 16,
                  let metric = UInt32(fields[5], radix: 16), let flags = UInt32(fields[8], radix: 16) else { continue }
            let gateway = nextHop.allSatisfy { $0 == 0 } ? nil : InterfaceAddress(ipv6: nextHop).address
            routes.append(Route(family: .ipv6, interface: String(fields[9]), destination: InterfaceAddress(ipv6: destination).address,
                                prefixLength: prefix, gateway: gateway, metric: metric,
                                isUp: flags & rtfUp != 0, isReject: flags & rtfReject != 0))
        }
        return routes
    }

    static func ipv4(_ value: UInt32) -> String {
        InterfaceAddress(ipv4: withUnsafeBytes(of: value) { Array($0) }).address
    }

    static func bytes(hex: Substring) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// What /sys/class/net/<if>/ tells about an interface's kind.
public struct SysNetInfo: Sendable, Equatable {
    /// /sys/class/net/<if>/wireless exists (cfg80211 and wireless-extensions drivers).
    public var hasWirelessDirectory: Bool
    /// /sys/class/net/<if>/phy80211 exists (mac80211 drivers).
    public var hasPhy80211: Bool
    /// The text of /sys/class/net/<if>/uevent.
    public var uevent: String?
    /// The text of /sys/class/net/<if>/type (the ARPHRD_* number).
    public var type: String?

    public init(hasWirelessDirectory: Bool = false, hasPhy80211: Bool = false, uevent: String? = nil, type: String? = nil) {
        self.hasWirelessDirectory = hasWirelessDirectory
        self.hasPhy80211 = hasPhy80211
        self.uevent = uevent
        self.type = type
    }

    /// `KEY=value` lines of a uevent file.
    public static func parseUevent(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals]).trimmingASCIIWhitespace()
            if !key.isEmpty { values[key] = String(line[line.index(after: equals)...]).trimmingASCIIWhitespace() }
        }
        return values
    }

    static let arphrdEther = 1
    static let arphrdLoopback = 772

    /// The kind: wireless markers or DEVTYPE=wlan → wifi, DEVTYPE=wwan → cellular, ARPHRD_LOOPBACK
    /// → loopback, ARPHRD_ETHER → ethernet (which includes veth, bridges and VLANs, as NWPathMonitor
    /// calls a wired path ethernet), anything else (tun, wireguard, ppp…) → other.
    public var interfaceType: InterfaceType {
        if hasWirelessDirectory || hasPhy80211 { return .wifi }
        switch uevent.map(SysNetInfo.parseUevent)?["DEVTYPE"]?.lowercased() {
        case "wlan": return .wifi
        case "wwan": return .cellular
        default: break
        }
        switch type.flatMap({ Int($0.trimmingASCIIWhitespace()) }) {
        case SysNetInfo.arphrdLoopback: return .loopback
        case SysNetInfo.arphrdEther: return .ethernet
        default: return .other
        }
    }
}
