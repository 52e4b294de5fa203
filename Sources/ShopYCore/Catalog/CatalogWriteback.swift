import CShopYShim

/// Starts the disk writes of a large file while it is still being written, a step at a time, so
/// that the fsync that commits it waits for its last part only. A hint to the kernel: it makes
/// nothing durable by itself (the fsync still does), and a failure of it changes nothing.
struct CatalogWriteback {
    static let step = 8 << 20
    let fd: Int32
    private(set) var written = 0
    private var started = 0

    init(fd: Int32) { self.fd = fd }

    /// Notes `count` more bytes written; starts the writeback once a step has gathered.
    mutating func wrote(_ count: Int) {
        written += count
        if written - started >= Self.step { start() }
    }

    /// Starts the writeback of everything written so far.
    mutating func start() {
        guard written > started else { return }
        _ = cshopy_start_writeback(fd, Int64(started), Int64(written - started))
        started = written
    }
}
