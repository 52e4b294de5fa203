// shopy-bench pictures: `shopy show` drawing a cached 1000×1000 JPEG on a 132×40 terminal (to
// the last byte), beside chafa's own command on the same picture and canvas when it is
// installed; and browse's key-to-screen latency on a Detail screen that shows a picture.
import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase
import ShopYCatalog

func pictureBench(runs: Int) {
    print("## Pictures: shopy show and browse's Detail")
    let base = temporaryDirectory("pictures")
    defer { try? FileManager.default.removeItem(atPath: base) }
    let fixture = repository + "/Fixtures/pictures/bench-1000.jpg"
    guard let jpeg = FileManager.default.contents(atPath: fixture) else {
        print("skipped: \(fixture) is missing")
        return
    }
    guard PictureLibrary.chafa.load(environment: ProcessInfo.processInfo.environment) == nil,
          PictureLibrary.jpeg.load(environment: ProcessInfo.processInfo.environment) == nil else {
        print("skipped: libchafa or libturbojpeg is not installed")
        return
    }
    // Every 세제 item (browse's rows) and the first catalog item (show's) draw the same JPEG.
    let cache = PictureCache(directory: base + "/cache/shopy/images")
    let items = Catalog.embedded.search(SearchRequest(query: "세제", display: 100)).items
    for item in items + [Catalog.embedded.items[0]] {
        if let image = item.image { try? cache.write(image, bytes: [UInt8](jpeg), format: .jpeg) }
    }
    let id = Catalog.embedded.items[0].productId
    let environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm-256color", "COLORTERM": "truecolor",
                       "SHOPY_HOME": base, "XDG_CACHE_HOME": base + "/cache"]
    var shopyTimes: [Double] = [], chafaTimes: [Double] = []
    var shopyBytes = 0, chafaBytes = 0
    let chafa = ["/usr/bin/chafa", "/usr/local/bin/chafa"].first { FileManager.default.isExecutableFile(atPath: $0) }
    for round in 0..<max(9, runs) {
        // In turn, so that both meet the same load.
        let pair: [(String, [String])] = [("shopy", [shopy, "show", "--id", id, "--images", "symbols"])]
            + (chafa.map { [("chafa", [$0, "--format", "symbols", "--size", "40x20", "--animate", "off", fixture])] } ?? [])
        for (name, argv) in round % 2 == 0 ? pair : pair.reversed() {
            guard let (seconds, bytes) = runOnPTY(argv, environment: environment, rows: 40, columns: 132) else { continue }
            if name == "shopy" { shopyTimes.append(seconds); shopyBytes = bytes } else { chafaTimes.append(seconds); chafaBytes = bytes }
        }
    }
    guard !shopyTimes.isEmpty else {
        print("shopy show: skipped (no pseudo-terminal)")
        return
    }
    print(String(format: "shopy show, cached 1000×1000 JPEG, 132×40 terminal (40×20 picture): %.1f ms median to the last byte (%d bytes, %d runs; goal ≤ 60 ms)",
                 median(shopyTimes) * 1000, shopyBytes, shopyTimes.count))
    if !chafaTimes.isEmpty {
        print(String(format: "chafa --size 40x20 on the same JPEG:                              %.1f ms median (%d bytes); shopy/chafa %.2f",
                     median(chafaTimes) * 1000, chafaBytes, median(shopyTimes) / median(chafaTimes)))
    }
    let withPicture = ptyLatency(presses: max(41, runs * 4), detail: true, arguments: ["--images", "symbols"],
                                 environment: ["COLORTERM=truecolor", "XDG_CACHE_HOME=" + base + "/cache"])
    let without = ptyLatency(presses: max(41, runs * 4), detail: true, arguments: ["--images", "off"], environment: ["XDG_CACHE_HOME=" + base + "/cache"])
    if let withPicture, let without {
        print(String(format: "key-to-screen on Detail (l, %d presses): %.2f ms median with the picture, %.2f ms without (goal ≤ 2 ms)",
                     withPicture.count, median(withPicture) * 1000, median(without) * 1000))
    }
    print()
}

/// Runs `argv` with a pseudo-terminal of `rows` × `columns` as its stdin, stdout and stderr,
/// reading everything it writes; the seconds from spawn to exit, and the bytes written.
func runOnPTY(_ argv: [String], environment: [String: String], rows: Int, columns: Int) -> (Double, Int)? {
    // Not exported by the Glibc module: found with dlsym, as ptyLatency finds them.
    typealias IntFunction = @convention(c) (Int32) -> Int32
    typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
    guard let process = dlopen(nil, RTLD_NOW), let openpt = dlsym(process, "posix_openpt"), let grant = dlsym(process, "grantpt"),
          let unlock = dlsym(process, "unlockpt"), let ptsname = dlsym(process, "ptsname") else { return nil }
    let master = unsafeBitCast(openpt, to: IntFunction.self)(O_RDWR | O_NOCTTY)
    guard master >= 0, unsafeBitCast(grant, to: IntFunction.self)(master) == 0, unsafeBitCast(unlock, to: IntFunction.self)(master) == 0,
          let name = unsafeBitCast(ptsname, to: NameFunction.self)(master) else { return nil }
    let slavePath = String(cString: name)
    defer { close(master) }
    var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    #if canImport(Glibc)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    #else
    _ = ioctl(master, TIOCSWINSZ, &size)
    var actions: posix_spawn_file_actions_t?
    var attributes: posix_spawnattr_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
    posix_spawn_file_actions_adddup2(&actions, 0, 1)
    posix_spawn_file_actions_adddup2(&actions, 0, 2)
    posix_spawnattr_init(&attributes)
    posix_spawnattr_setflags(&attributes, Int16(0x80))  // POSIX_SPAWN_SETSID
    let cArgs = argv.map { strdup($0) } + [nil]
    let env = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    var pid = pid_t()
    let start = DispatchTime.now().uptimeNanoseconds
    let rc = posix_spawn(&pid, argv[0], &actions, &attributes, cArgs, env)
    cArgs.forEach { free($0) }
    env.forEach { free($0) }
    posix_spawn_file_actions_destroy(&actions)
    posix_spawnattr_destroy(&attributes)
    guard rc == 0 else { return nil }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var total = 0
    var status: Int32 = 0
    var end: UInt64 = 0
    while true {
        var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
        if poll(&fds, 1, 5) > 0 {
            let n = read(master, &buffer, buffer.count)
            if n > 0 { total += n; end = DispatchTime.now().uptimeNanoseconds; continue }
        }
        if waitpid(pid, &status, WNOHANG) == pid { break }
    }
    // Bytes still in the pty after the exit: the last byte is when it was read.
    while true {
        var fds = [pollfd(fd: master, events: Int16(POLLIN), revents: 0)]
        guard poll(&fds, 1, 0) > 0 else { break }
        let n = read(master, &buffer, buffer.count)
        guard n > 0 else { break }
        total += n
        end = DispatchTime.now().uptimeNanoseconds
    }
    return (Double(max(end, start) - start) / 1e9, total)
}
