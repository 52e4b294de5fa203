// shopy-bench browse: a full 132×50 frame with 100 rows (render, and its bytes), the bytes of
// a one-row move (only the two changed lines), and key-to-screen latency through a pty.
import Foundation
import ShopYCore
import ShopYCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase
import ShopYCatalog

func browseBench(runs: Int) {
    print("## shopy browse: frames and keys")
    var state = BrowseState(source: .catalog, tab: .search, query: "방충망", sort: .asc)
    state.rows = 50
    state.columns = 132
    state.search.total = 1234
    state.search.loadedThrough = 100
    let titles = Catalog.embedded.items.prefix(100).map { $0.title }
    state.search.items = (0..<100).map { i in
        RankedProduct(rank: i + 1, product: Product(productId: String(80_000_000 + i), title: TitleCleaner.clean(titles[i % titles.count]) + " 👍",
                                                    price: 990 * (i + 1), mall: "네이버 스마트스토어"))
    }
    for i in stride(from: 0, to: 100, by: 3) { state.liked[String(80_000_000 + i)] = "2026-12-01T00:00:00Z" }
    state.search.cursor = ListCursor(selection: 10, scroll: 0)

    let iterations = max(51, runs * 10)
    var renderTimes: [Double] = [], fullTimes: [Double] = []
    var frame = BrowseRender.render(state, rows: 50, columns: 132)
    for _ in 0..<iterations {
        let t0 = DispatchTime.now().uptimeNanoseconds
        frame = BrowseRender.render(state, rows: 50, columns: 132)
        let t1 = DispatchTime.now().uptimeNanoseconds
        let bytes = FrameWriter.diff(from: nil, to: frame)
        let t2 = DispatchTime.now().uptimeNanoseconds
        precondition(!bytes.isEmpty)
        renderTimes.append(Double(t1 - t0) / 1e9)
        fullTimes.append(Double(t2 - t0) / 1e9)
    }
    let full = FrameWriter.diff(from: nil, to: frame)
    print(String(format: "render a 132×50 frame, 100 rows loaded   %.3f ms median (goal ≤ 1 ms)", median(renderTimes) * 1000))
    print(String(format: "render + all its bytes (%d bytes)       %.3f ms median", full.count, median(fullTimes) * 1000))

    let moved = BrowseReducer.reduce(state, .key(.char("j"))).0
    let next = BrowseRender.render(moved, rows: 50, columns: 132)
    let diff = FrameWriter.diff(from: frame, to: next)
    let lines = (0..<50).filter { frame.lines[$0] != next.lines[$0] }.count
    print("one-row move (j): \(diff.count) bytes, \(lines) lines rewritten (goal: the two changed lines); a full redraw is \(full.count) bytes")

    guard let latency = ptyLatency(presses: max(41, runs * 4)) else {
        print("key-to-screen latency: skipped (no pseudo-terminal)")
        print()
        return
    }
    print(String(format: "key-to-screen latency through a pty (j/k, %d presses): %.2f ms median, %.2f ms p90 (goal ≤ 10 ms median)",
                 latency.count, median(latency) * 1000, latency.sorted()[latency.count * 9 / 10] * 1000))
    print()
}

/// Starts the release `shopy browse` on a pty, waits for its first frame, then times each j/k
/// from the write of the key to the arrival of the frame's bytes.
/// `detail`: Enter opens the first row's Detail screen first (`environment` adds variables, e.g. a
/// picture cache), and the keys are timed there, with its picture drawn.
func ptyLatency(presses: Int, detail: Bool = false, arguments: [String] = [], environment extra: [String] = []) -> [Double]? {
    typealias IntFunction = @convention(c) (Int32) -> Int32
    typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    guard let process = dlopen(nil, RTLD_NOW), let openpt = dlsym(process, "posix_openpt"), let grant = dlsym(process, "grantpt"),
          let unlock = dlsym(process, "unlockpt"), let name = dlsym(process, "ptsname") else { return nil }
    let master = unsafeBitCast(openpt, to: IntFunction.self)(O_RDWR | O_NOCTTY)
    guard master >= 0, unsafeBitCast(grant, to: IntFunction.self)(master) == 0, unsafeBitCast(unlock, to: IntFunction.self)(master) == 0,
          let path = unsafeBitCast(name, to: NameFunction.self)(master) else { return nil }
    let slavePath = String(cString: path)
    defer { close(master) }
    var size = winsize(ws_row: 50, ws_col: 132, ws_xpixel: 0, ws_ypixel: 0)
    #if canImport(Glibc)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    #else
    _ = ioctl(master, TIOCSWINSZ, &size)
    #endif
    let home = temporaryDirectory("browse")
    #if canImport(Glibc)
    var actions = posix_spawn_file_actions_t()
    #else
    var actions: posix_spawn_file_actions_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    #if canImport(Glibc)
    var attributes = posix_spawnattr_t()
    #else
    var attributes: posix_spawnattr_t?
    #endif
    posix_spawnattr_init(&attributes)
    posix_spawnattr_setflags(&attributes, Int16(0x80))  // POSIX_SPAWN_SETSID
    let argv = [shopy, "browse", "--source", "catalog", "--size", "100"] + arguments + ["세제"]
    let cArgs = argv.map { strdup($0) } + [nil]
    let variables: [String] = ["PATH=/usr/bin:/bin", "LANG=C.UTF-8", "TERM=xterm-256color", "SHOPY_HOME=" + home] + extra
    let env = variables.map { strdup($0) } + [nil]
    var pid = pid_t()
    let rc = posix_spawn(&pid, shopy, &actions, &attributes, cArgs, env)
    cArgs.forEach { free($0) }
    env.forEach { free($0) }
    posix_spawn_file_actions_destroy(&actions)
    posix_spawnattr_destroy(&attributes)
    guard rc == 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var screen = TerminalScreen(rows: 50, columns: 132)
    func pull(timeout: Int32) -> Int {
        var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 1, timeout) > 0 else { return 0 }
        let n = read(master, &buffer, buffer.count)
        if n > 0 { screen.feed(buffer[0..<n]) }
        return max(0, n)
    }
    let ready = Date().addingTimeInterval(20)
    while !screen.text.contains(" of ") && Date() < ready { _ = pull(timeout: 100) }
    while pull(timeout: 200) > 0 {}
    if detail {
        var enter: UInt8 = 0x0D
        _ = write(master, &enter, 1)
        let opened = Date().addingTimeInterval(10)
        while !screen.text.contains("Detail ·") && Date() < opened { _ = pull(timeout: 100) }
        while pull(timeout: 500) > 0 {}  // the picture, rendered off the loop, then placed
    }
    var times: [Double] = []
    for i in 0..<presses {
        // j, k on a list; on Detail (whose card fits the screen) l, which likes and unlikes in turn.
        var key: UInt8 = detail ? 0x6C : i % 2 == 0 ? 0x6A : 0x6B
        let start = DispatchTime.now().uptimeNanoseconds
        _ = write(master, &key, 1)
        guard pull(timeout: 1000) > 0 else { continue }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        while pull(timeout: 5) > 0 {}
    }
    var quit: UInt8 = 0x71
    _ = write(master, &quit, 1)
    var status: Int32 = 0
    let deadline = Date().addingTimeInterval(5)
    while waitpid(pid, &status, WNOHANG) == 0 {
        if Date() > deadline { kill(pid, SIGKILL) }
        _ = pull(timeout: 20)
    }
    try? FileManager.default.removeItem(atPath: home)
    return times.isEmpty ? nil : times
}
