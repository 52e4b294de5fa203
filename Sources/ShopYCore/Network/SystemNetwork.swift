import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(Network)
import Network
#endif
import ShopYBase

/// Reads the network state of the running system.
///
/// On Linux the whole state is read afresh every time (getifaddrs, /proc/net/route,
/// /proc/net/ipv6_route, /sys/class/net): a few small reads, well under a millisecond, and
/// nothing cached that could go stale. On macOS NWPathMonitor decides (see `PathMonitor`).
public enum SystemNetwork {
    /// The state now.
    public static func snapshot() -> NetworkSnapshot {
        #if os(Linux)
        return NetworkSnapshot(interfaces: interfaces(), routes: routes())
        #elseif canImport(Network)
        return oneShot().map(NetworkSnapshot.init) ?? NetworkSnapshot(interfaces: interfaces(), routes: [])
        #else
        return NetworkSnapshot(interfaces: interfaces(), routes: [])
        #endif
    }

    /// The path now: one evaluation, no monitor, no netlink socket.
    public static func currentPath() -> PathStatus {
        #if !os(Linux) && canImport(Network)
        // No answer in time counts as satisfied (see `oneShot`).
        guard let path = oneShot() else { return PathStatus(status: .satisfied) }
        return NetworkSnapshot(path).path
        #else
        return snapshot().path
        #endif
    }

    #if os(Linux)
    /// The kernel's routes, both families. A missing file (IPv6 disabled) is an empty table.
    public static func routes(procNet: String = "/proc/net") -> [Route] {
        RouteTable.parseIPv4(readText(procNet + "/route") ?? "") + RouteTable.parseIPv6(readText(procNet + "/ipv6_route") ?? "")
    }

    /// What /sys/class/net/<name>/ says about an interface; nil when the directory is missing
    /// (sysfs not mounted for this network namespace).
    public static func sysInfo(for name: String, sysClassNet: String = "/sys/class/net") -> SysNetInfo? {
        // The name comes from getifaddrs, but a path component must never climb out.
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        let directory = sysClassNet + "/" + name
        guard access(directory, F_OK) == 0 else { return nil }
        return SysNetInfo(hasWirelessDirectory: access(directory + "/wireless", F_OK) == 0,
                          hasPhy80211: access(directory + "/phy80211", F_OK) == 0,
                          uevent: readText(directory + "/uevent"), type: readText(directory + "/type"))
    }
    #endif

    /// Every interface with its flags and addresses, from getifaddrs (which lists an
    /// AF_PACKET entry for each link, so interfaces without addresses appear too).
    public static func interfaces() -> [InterfaceState] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var order: [String] = []
        var flagsByName: [String: UInt32] = [:]
        var addressesByName: [String: [InterfaceAddress]] = [:]
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let name = String(cString: entry.pointee.ifa_name)
            if flagsByName[name] == nil { order.append(name) }
            flagsByName[name, default: 0] |= UInt32(entry.pointee.ifa_flags)
            if let address = entry.pointee.ifa_addr, let parsed = interfaceAddress(address) {
                addressesByName[name, default: []].append(parsed)
            }
        }
        return order.map { name in
            let flags = flagsByName[name] ?? 0
            let isLoopback = flags & UInt32(IFF_LOOPBACK) != 0
            #if os(Linux)
            let type = sysInfo(for: name)?.interfaceType ?? (isLoopback ? .loopback : .other)
            #else
            let type: InterfaceType = isLoopback ? .loopback : .other
            #endif
            return InterfaceState(name: name, type: type, isUp: flags & UInt32(IFF_UP) != 0,
                                  isRunning: flags & UInt32(IFF_RUNNING) != 0, isLoopback: isLoopback,
                                  addresses: addressesByName[name] ?? [])
        }
    }

    static func interfaceAddress(_ address: UnsafeMutablePointer<sockaddr>) -> InterfaceAddress? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var raw = v4.pointee.sin_addr
                return InterfaceAddress(ipv4: withUnsafeBytes(of: &raw) { Array($0) })
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var raw = v6.pointee.sin6_addr
                return InterfaceAddress(ipv6: withUnsafeBytes(of: &raw) { Array($0) })
            }
        default:
            return nil
        }
    }

    static func readText(_ path: String) -> String? {
        guard let bytes = (try? FileIO.read(path)) ?? nil else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    #if !os(Linux) && canImport(Network)
    /// One NWPath, waited for briefly. NWPathMonitor answers within milliseconds of start; if it
    /// does not within a second, the path is taken as satisfied, so that a slow framework never
    /// makes shopy refuse to try the network.
    static func oneShot() -> NWPath? {
        let monitor = NWPathMonitor()
        let semaphore = DispatchSemaphore(value: 0)
        let box = PathBox()
        monitor.pathUpdateHandler = { path in
            if box.set(path) { semaphore.signal() }
        }
        monitor.start(queue: DispatchQueue(label: "shopy.path.oneshot"))
        _ = semaphore.wait(timeout: .now() + 1)
        monitor.cancel()
        return box.path
    }

    private final class PathBox: @unchecked Sendable {
        private let lock = NSLock()
        private var value: NWPath?
        var path: NWPath? { lock.withLock { value } }
        /// Keeps the first path; true when this call stored it.
        func set(_ path: NWPath) -> Bool {
            lock.withLock {
                if value != nil { return false }
                value = path
                return true
            }
        }
    }
    #endif
}

#if !os(Linux) && canImport(Network)
extension InterfaceType {
    init(_ type: NWInterface.InterfaceType) {
        switch type {
        case .wifi: self = .wifi
        case .wiredEthernet: self = .ethernet
        case .cellular: self = .cellular
        case .loopback: self = .loopback
        default: self = .other
        }
    }
}

extension NetworkSnapshot {
    /// NWPathMonitor has already decided; macOS's routing table is not read here. Its decision is
    /// carried as one default route per interface the path uses, so that `path`, `changes` and
    /// the commands work the same on both systems.
    init(_ path: NWPath) {
        let addresses = Dictionary(SystemNetwork.interfaces().map { ($0.name, $0.addresses) }, uniquingKeysWith: { a, _ in a })
        let interfaces = path.availableInterfaces.map { nw in
            InterfaceState(name: nw.name, type: InterfaceType(nw.type), isUp: true, isRunning: true,
                           isLoopback: nw.type == .loopback, addresses: addresses[nw.name] ?? [])
        }
        var routes: [Route] = []
        if path.status == .satisfied {
            for nw in path.availableInterfaces where nw.type != .loopback {
                let usable = (addresses[nw.name] ?? []).filter(\.isUsable)
                for family in Set(usable.map(\.family)) {
                    routes.append(Route(family: family, interface: nw.name, destination: family == .ipv4 ? "0.0.0.0" : "::", prefixLength: 0))
                }
            }
        }
        self.init(interfaces: interfaces, routes: routes)
    }
}
#endif
