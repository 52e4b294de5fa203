#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The model of the network path, with NWPathMonitor's meaning: a path is *satisfied* when
/// traffic to the internet has somewhere to go (a default route through an interface that is up,
/// has link and a usable address), and it names the interfaces it would use.
///
/// Everything here is plain data so that the rules (`PathStatus.evaluate`, `NetworkSnapshot.changes`)
/// are pure and tested from fixtures; `SystemNetwork` fills it from the running system.

/// The kind of an interface, as NWInterface.InterfaceType.
public enum InterfaceType: String, Sendable, CaseIterable {
    case wifi, ethernet, cellular, loopback, other
}

/// An interface the path uses: name and kind.
public struct NetworkInterface: Sendable, Hashable {
    public var name: String
    public var type: InterfaceType

    public init(name: String, type: InterfaceType) {
        self.name = name
        self.type = type
    }
}

public enum AddressFamily: String, Sendable, Hashable, Comparable {
    case ipv4, ipv6

    public static func < (a: AddressFamily, b: AddressFamily) -> Bool { a == .ipv4 && b == .ipv6 }
}

/// One address of an interface, classified once when made.
public struct InterfaceAddress: Sendable, Hashable, CustomStringConvertible {
    public var family: AddressFamily
    /// Canonical text (inet_ntop).
    public var address: String
    public var isLoopback: Bool
    public var isLinkLocal: Bool
    public var isUnspecified: Bool

    /// Parses `text` (an IPv4 or IPv6 literal, without a zone or prefix); nil when it is neither.
    public init?(_ text: String) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(ipv4: withUnsafeBytes(of: &v4) { Array($0) })
        } else if inet_pton(AF_INET6, text, &v6) == 1 {
            self.init(ipv6: withUnsafeBytes(of: &v6) { Array($0) })
        } else {
            return nil
        }
    }

    /// From the 4 bytes of an IPv4 address in network order.
    public init(ipv4 bytes: [UInt8]) {
        family = .ipv4
        address = bytes.map(String.init).joined(separator: ".")
        isLoopback = bytes[0] == 127
        isLinkLocal = bytes[0] == 169 && bytes[1] == 254
        isUnspecified = bytes.allSatisfy { $0 == 0 }
    }

    /// From the 16 bytes of an IPv6 address in network order.
    public init(ipv6 bytes: [UInt8]) {
        family = .ipv6
        address = InterfaceAddress.ntop6(bytes)
        isLoopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
        isLinkLocal = bytes[0] == 0xFE && (bytes[1] & 0xC0) == 0x80
        isUnspecified = bytes.allSatisfy { $0 == 0 }
    }

    /// Whether traffic to the internet could leave from this address. IPv4 link-local
    /// (169.254/16) counts: hosts do use it behind some gateways; IPv6 link-local never does.
    public var isUsable: Bool {
        if isLoopback || isUnspecified { return false }
        return family == .ipv4 || !isLinkLocal
    }

    public var description: String { address }

    static func ntop6(_ bytes: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let ok = bytes.withUnsafeBytes { raw in inet_ntop(AF_INET6, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil }
        return ok ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    }
}

/// One interface as the system reports it.
public struct InterfaceState: Sendable, Equatable {
    public var name: String
    public var type: InterfaceType
    /// IFF_UP: administratively up (`ip link set … up`).
    public var isUp: Bool
    /// IFF_RUNNING: has link (carrier); a cable pulled or a veth whose peer is down clears it.
    public var isRunning: Bool
    public var isLoopback: Bool
    /// Sorted, so that two readings of the same state compare equal.
    public var addresses: [InterfaceAddress]

    public init(name: String, type: InterfaceType, isUp: Bool, isRunning: Bool, isLoopback: Bool = false,
                addresses: [InterfaceAddress] = []) {
        self.name = name
        self.type = type
        self.isUp = isUp
        self.isRunning = isRunning
        self.isLoopback = isLoopback
        self.addresses = addresses.sorted { ($0.family, $0.address) < ($1.family, $1.address) }
    }

    /// Up and with link: what `ip link` shows as UP,LOWER_UP.
    public var hasLink: Bool { isUp && isRunning }

    public var usableAddresses: [InterfaceAddress] { addresses.filter(\.isUsable) }
}

/// One route of the kernel's table (from /proc/net/route or /proc/net/ipv6_route).
public struct Route: Sendable, Hashable {
    public var family: AddressFamily
    public var interface: String
    /// Canonical address text of the destination network.
    public var destination: String
    public var prefixLength: Int
    /// Nil for an on-link route (no next hop).
    public var gateway: String?
    public var metric: UInt32
    /// RTF_UP.
    public var isUp: Bool
    /// RTF_REJECT: an `unreachable`/`prohibit` route, which carries nothing (the kernel's
    /// IPv6 table always ends with one on lo).
    public var isReject: Bool

    public init(family: AddressFamily, interface: String, destination: String, prefixLength: Int, gateway: String? = nil,
                metric: UInt32 = 0, isUp: Bool = true, isReject: Bool = false) {
        self.family = family
        self.interface = interface
        self.destination = destination
        self.prefixLength = prefixLength
        self.gateway = gateway
        self.metric = metric
        self.isUp = isUp
        self.isReject = isReject
    }

    public var isDefault: Bool { prefixLength == 0 }

    /// A default route that can carry traffic.
    public var isUsableDefault: Bool { isDefault && isUp && !isReject }

    /// `ipv4 default via 192.0.2.1 dev eth0` in words.
    public var summary: String {
        let what = isDefault ? "default route" : "route to \(destination)/\(prefixLength)"
        return "\(family.rawValue) \(what)" + (gateway.map { " via \($0)" } ?? "") + " on \(interface)"
    }
}

/// Whether the path is usable, which interfaces it uses, and why not when it is not.
public struct PathStatus: Sendable, Equatable {
    public enum Status: String, Sendable {
        case satisfied, unsatisfied
    }

    public var status: Status
    /// The interfaces with a usable default route, preferred (lowest metric) first. Empty when
    /// unsatisfied.
    public var interfaces: [NetworkInterface]
    /// Why the path is unsatisfied, in words (`no interface with a default route`); nil when satisfied.
    public var unsatisfiedReason: String?

    public init(status: Status, interfaces: [NetworkInterface] = [], unsatisfiedReason: String? = nil) {
        self.status = status
        self.interfaces = interfaces
        self.unsatisfiedReason = unsatisfiedReason
    }

    public var isSatisfied: Bool { status == .satisfied }

    /// Whether the path uses an interface of `type` (as NWPath.usesInterfaceType).
    public func usesInterfaceType(_ type: InterfaceType) -> Bool { interfaces.contains { $0.type == type } }

    public static let noDefaultRoute = "no interface with a default route"

    /// The path from the interfaces and routes the system reports: satisfied when some usable
    /// default route (up, not a reject route) goes through an interface that is up, has link and
    /// holds a usable address of the route's family. Loopback never counts: a default route on lo
    /// reaches nothing beyond this host.
    public static func evaluate(interfaces: [InterfaceState], routes: [Route]) -> PathStatus {
        let byName = Dictionary(interfaces.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let defaults = routes.filter(\.isUsableDefault).sorted { ($0.metric, $0.family) < ($1.metric, $1.family) }
        var used: [NetworkInterface] = []
        var firstProblem: String?
        for route in defaults {
            let problem: String?
            if let interface = byName[route.interface] {
                // A default route on lo leads nowhere and is not worth a reason either.
                if interface.isLoopback || interface.type == .loopback { continue }
                if !interface.isUp {
                    problem = "\(interface.name) is down"
                } else if !interface.isRunning {
                    problem = "\(interface.name) has no link"
                } else if !interface.addresses.contains(where: { $0.isUsable && $0.family == route.family }) {
                    problem = "\(interface.name) has no usable \(route.family == .ipv4 ? "IPv4" : "IPv6") address"
                } else {
                    problem = nil
                    let entry = NetworkInterface(name: interface.name, type: interface.type)
                    if !used.contains(entry) { used.append(entry) }
                }
            } else {
                problem = "the default route names \(route.interface), which does not exist"
            }
            if firstProblem == nil, let problem { firstProblem = problem }
        }
        if !used.isEmpty { return PathStatus(status: .satisfied, interfaces: used) }
        return PathStatus(status: .unsatisfied, unsatisfiedReason: firstProblem ?? noDefaultRoute)
    }
}

/// What the path rules look at, read at one moment: every interface and the default routes.
/// Two snapshots compare equal when nothing that matters to the path changed.
public struct NetworkSnapshot: Sendable, Equatable {
    public var interfaces: [InterfaceState]
    /// Usable default routes only, without duplicates: the rest of the table (and the reject
    /// defaults the kernel keeps on lo) does not decide the path, and keeping it would make
    /// every unrelated route change look like a change of the path.
    public var routes: [Route]

    public init(interfaces: [InterfaceState], routes: [Route]) {
        self.interfaces = interfaces.sorted { $0.name < $1.name }
        self.routes = Set(routes.filter(\.isUsableDefault)).sorted { ($0.family, $0.interface, $0.metric, $0.gateway ?? "") < ($1.family, $1.interface, $1.metric, $1.gateway ?? "") }
    }

    public var path: PathStatus { PathStatus.evaluate(interfaces: interfaces, routes: routes) }

    /// What changed from `old` to `self`, in the order a person would tell it: interfaces that
    /// came or went, link up/down, usable addresses, then default routes.
    public func changes(from old: NetworkSnapshot) -> [PathChange] {
        var changes: [PathChange] = []
        let before = Dictionary(old.interfaces.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let after = Dictionary(interfaces.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for interface in interfaces where interface.type != .loopback {
            guard let previous = before[interface.name] else {
                changes.append(.interfaceAdded(interface.name))
                if interface.hasLink { changes.append(.linkUp(interface.name)) }
                for address in interface.usableAddresses { changes.append(.addressAdded(interface.name, address)) }
                continue
            }
            if previous.hasLink != interface.hasLink {
                changes.append(interface.hasLink ? .linkUp(interface.name) : .linkDown(interface.name))
            }
            let oldAddresses = Set(previous.usableAddresses), newAddresses = Set(interface.usableAddresses)
            for address in interface.usableAddresses where !oldAddresses.contains(address) {
                changes.append(.addressAdded(interface.name, address))
            }
            for address in previous.usableAddresses where !newAddresses.contains(address) {
                changes.append(.addressRemoved(interface.name, address))
            }
        }
        for interface in old.interfaces where interface.type != .loopback && after[interface.name] == nil {
            changes.append(.interfaceRemoved(interface.name))
        }
        let oldRoutes = Set(old.routes), newRoutes = Set(routes)
        for route in routes where !oldRoutes.contains(route) { changes.append(.routeAdded(route)) }
        for route in old.routes where !newRoutes.contains(route) { changes.append(.routeRemoved(route)) }
        return changes
    }
}

/// One difference between two snapshots.
public enum PathChange: Sendable, Equatable {
    case interfaceAdded(String)
    case interfaceRemoved(String)
    case linkUp(String)
    case linkDown(String)
    case addressAdded(String, InterfaceAddress)
    case addressRemoved(String, InterfaceAddress)
    case routeAdded(Route)
    case routeRemoved(Route)

    /// The event name scripts match on (`link-down`, `route-removed`, …).
    public var event: String {
        switch self {
        case .interfaceAdded: return "interface-added"
        case .interfaceRemoved: return "interface-removed"
        case .linkUp: return "link-up"
        case .linkDown: return "link-down"
        case .addressAdded: return "address-added"
        case .addressRemoved: return "address-removed"
        case .routeAdded: return "route-added"
        case .routeRemoved: return "route-removed"
        }
    }

    public var interface: String {
        switch self {
        case .interfaceAdded(let name), .interfaceRemoved(let name), .linkUp(let name), .linkDown(let name),
             .addressAdded(let name, _), .addressRemoved(let name, _):
            return name
        case .routeAdded(let route), .routeRemoved(let route):
            return route.interface
        }
    }

    /// In words, for the human watch line.
    public var summary: String {
        switch self {
        case .interfaceAdded(let name): return "\(name) appeared"
        case .interfaceRemoved(let name): return "\(name) disappeared"
        case .linkUp(let name): return "\(name) link up"
        case .linkDown(let name): return "\(name) link down"
        case .addressAdded(let name, let address): return "\(name) gained \(address)"
        case .addressRemoved(let name, let address): return "\(name) lost \(address)"
        case .routeAdded(let route): return route.summary + " added"
        case .routeRemoved(let route): return route.summary + " removed"
        }
    }
}
