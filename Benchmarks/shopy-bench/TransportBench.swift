// The transport benchmark (issue 10): CPU while waiting, a deep rank scan's CPU, wall time and
// connections, start-up cost against a Foundation hello world, and a search's peak RSS.
import Foundation
import ShopYCore
import ShopYCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// A child's wall time, CPU time (user + system) and peak RSS, from wait4's rusage.
struct MeasuredRun {
    var wall: Double
    var cpu: Double
    var user: Double
    var system: Double
    var maxRSSKiB: Int
    var status: Int32
}

func spawnMeasured(_ argv: [String], environment: [String: String], stdoutPath: String = "/dev/null") -> MeasuredRun {
    var pid = pid_t()
    #if canImport(Glibc)
    var actions = posix_spawn_file_actions_t()
    #else
    var actions: posix_spawn_file_actions_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let cArgs = argv.map { strdup($0) } + [nil]
    let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        cArgs.forEach { free($0) }
        cEnv.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
    }
    let start = DispatchTime.now().uptimeNanoseconds
    let rc = posix_spawn(&pid, argv[0], &actions, nil, cArgs, cEnv)
    guard rc == 0 else { fatalError("cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    let user = seconds(usage.ru_utime), system = seconds(usage.ru_stime)
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return MeasuredRun(wall: wall, cpu: user + system, user: user, system: system, maxRSSKiB: Int(usage.ru_maxrss), status: exitStatus)
}

/// The peak RSS of `argv` alone, in KiB, measured by `/usr/bin/time` (nil without it). wait4's
/// ru_maxrss of a posix_spawn child is not enough: glibc spawns with CLONE_VM, so at exec the
/// kernel folds this (larger) bench process's own high-water mark into the child's figure.
func peakRSS(_ argv: [String], environment: [String: String]) -> Int? {
    let time = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: time) else { return nil }
    let output = temporaryDirectory("rss") + "/rss.txt"
    let run = spawn([time, "-f", "%M", "-o", output] + argv, environment: environment)
    guard run.status == 0, let text = try? String(contentsOfFile: output, encoding: .utf8) else { return nil }
    return text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
}

/// `/_emulator/stats` (or `/reset`) through shopy's own transport: one kept-alive connection,
/// so reading the counters adds no connection after a reset.
func emulatorControl(_ base: String, _ path: String) -> JSONValue {
    let semaphore = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var value: JSONValue = .null
    Task {
        let request = HTTPRequest(url: URL(string: base + path)!)
        if let response = try? await SystemTransport.shared.send(request, deadline: .now.advanced(by: .seconds(5))) {
            value = (try? JSONParser.parse(response.body)) ?? .null
        }
        semaphore.signal()
    }
    semaphore.wait()
    return value
}

/// Instructions callgrind counts for `argv`, dumped every 200,000 basic blocks so that what ran
/// before valgrind gives up is kept (nil without valgrind). For shopy that is the dynamic linking
/// and runtime start up to the main thread's first park: valgrind 3.19 dies there (a top-level
/// `await` program parks its main thread in sigsuspend), so the command's own work is not in it.
func startupInstructions(_ argv: [String], environment: [String: String]) -> Int? {
    let valgrind = "/usr/bin/valgrind"
    guard FileManager.default.isExecutableFile(atPath: valgrind) else { return nil }
    let directory = temporaryDirectory("callgrind")
    _ = spawn([valgrind, "--tool=callgrind", "--dump-every-bb=200000", "--callgrind-out-file=\(directory)/cg.%p"] + argv,
              environment: environment)
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    var total = 0
    for file in files {
        guard let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else { continue }
        for line in text.split(separator: "\n") where line.hasPrefix("totals:") {
            total += Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
    }
    return total > 0 ? total : nil
}

/// Scripts/valgrind-sigsuspend-shim.c built with the system C compiler (nil without one).
func valgrindShim() -> String? {
    let library = temporaryDirectory("vgshim") + "/shim.so"
    let run = spawn(["/usr/bin/env", "cc", "-shared", "-fPIC", "-O2", "-o", library, repository + "/Scripts/valgrind-sigsuspend-shim.c"],
                    environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
    return run.status == 0 ? library : nil
}

/// A Foundation hello world built with the same toolchain, optimised, as the start-up reference.
func foundationHelloWorld() -> String? {
    let directory = temporaryDirectory("hello")
    let source = directory + "/main.swift", binary = directory + "/hello"
    let program = "import Foundation\nprint(\"hello \\(ProcessInfo.processInfo.processIdentifier > 0)\")\n"
    guard FileManager.default.createFile(atPath: source, contents: Data(program.utf8)) else { return nil }
    let run = spawn(["/usr/bin/env", "swiftc", "-O", source, "-o", binary], environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"])
    return run.status == 0 ? binary : nil
}

func transportBench(runs: Int) {
    print("## Transport: libcurl, waiting asleep, connections reused, nothing paid at start")
    let home = temporaryDirectory("transport-home")

    // 1. CPU while a slow answer is awaited.
    do {
        let emulator = Emulator(["--latency", "2000"])
        defer { emulator.stop() }
        let waits = max(3, runs / 7)
        var ratios: [Double] = [], cpus: [Double] = [], walls: [Double] = []
        for _ in 0..<waits {
            let run = spawnMeasured([shopy, "search", "생활", "--format", "json"], environment: emulator.environment(home: home))
            precondition(run.status == 0, "shopy search failed with \(run.status)")
            ratios.append(run.cpu / run.wall)
            cpus.append(run.cpu)
            walls.append(run.wall)
        }
        print(String(format: "search against --latency 2000: wall %.0f ms, CPU %.1f ms; CPU ÷ wall %.4f (goal ≤ 0.05) [%d runs, median]",
                     median(walls) * 1000, median(cpus) * 1000, median(ratios), waits))
    }

    // 2. A depth-1,099 rank scan: 11 pages at 400 ms latency, emulator throttle 10/s, shopy's 8/s.
    do {
        let emulator = Emulator(["--items", deepItemsFile(), "--latency", "400", "--rate-limit", "10"])
        defer { emulator.stop() }
        let scans = min(runs, 7)
        var cpus: [Double] = [], walls: [Double] = [], connections: [Int] = [], throttled = 0, rss: [Int] = []
        for _ in 0..<scans {
            _ = emulatorControl(emulator.base, "/_emulator/reset")
            let run = spawnMeasured([shopy, "rank", "벤치키워드", "--product", "99999999999", "--depth", "1099", "--json"],
                                    environment: emulator.environment(home: home))
            precondition(run.status == 0, "shopy rank failed with \(run.status)")
            let stats = emulatorControl(emulator.base, "/_emulator/stats")
            cpus.append(run.cpu)
            walls.append(run.wall)
            connections.append(stats["connections"]?.intValue ?? -1)
            throttled += stats["throttled"]?.intValue ?? 0
        }
        let rankArgs = [shopy, "rank", "벤치키워드", "--product", "99999999999", "--depth", "1099", "--json"]
        for _ in 0..<3 { if let kib = peakRSS(rankArgs, environment: emulator.environment(home: home)) { rss.append(kib) } }
        let bound = 10.0 / 8 + 0.4
        print(String(format: "rank --depth 1099 (11 requests): CPU %.3f s (goal ≤ 0.2 s); wall %.0f ms, %+.1f%% from the rate bound %.0f ms (goal within 5%%)",
                     median(cpus), median(walls) * 1000, (median(walls) / bound - 1) * 100, bound * 1000))
        // No page goes past the first answer's total (issue 12): pages 2… wait for that answer but
        // keep their turns, so the scan still ends where the rate sets (were turns taken only
        // after the total, the end would be a round trip later: 0.4 + 9/8 + 0.4 s).
        let turnsAfterTheTotal = 0.4 + 9.0 / 8 + 0.4
        print(String(format: "  (had pages taken their turns only once the total was known: %.0f ms)", turnsAfterTheTotal * 1000))
        print("  connections accepted per scan: \(connections.map(String.init).joined(separator: ", ")) (goal ≤ 6); throttled answers: \(throttled) (goal 0) [\(scans) runs]; peak RSS \(String(format: "%.1f", Double(rss.max() ?? 0) / 1024)) MiB [/usr/bin/time]")
    }

    // 3. Start-up against a Foundation hello world: CPU time (user + system, which the kernel
    // accounts in nanoseconds, so other load on the machine hardly moves it) and wall time,
    // medians of runs taken in turn; and callgrind's count of the part valgrind can follow.
    if let hello = foundationHelloWorld() {
        let env = ["PATH": "/usr/bin:/bin", "SHOPY_HOME": home, "LANG": "C.UTF-8"]
        let programs: [(String, [String])] = [("Foundation hello world", [hello]), ("shopy --version", [shopy, "--version"]),
                                              ("shopy likes", [shopy, "likes"])]
        var cpu = [[Double]](repeating: [], count: programs.count), wall = cpu
        for _ in 0..<5 { for (_, argv) in programs { _ = spawnMeasured(argv, environment: env) } }
        for _ in 0..<max(runs, 31) {
            for (index, (_, argv)) in programs.enumerated() {
                let run = spawnMeasured(argv, environment: env)
                precondition(run.status == 0, "\(argv) failed with \(run.status)")
                cpu[index].append(run.cpu)
                wall[index].append(run.wall)
            }
        }
        let helloCPU = median(cpu[0]), helloWall = median(wall[0])
        print("start-up (\(max(runs, 31)) runs each, in turn, median): Foundation hello world CPU \(ms(helloCPU)), wall \(ms(helloWall))")
        for index in 1..<programs.count {
            let c = median(cpu[index]), w = median(wall[index])
            print("  \(programs[index].0): CPU \(ms(c)) (\(String(format: "%.2f", c / helloCPU))× hello; goal ≤ 1.3×), wall \(ms(w)) (\(String(format: "%.2f", w / helloWall))×)")
        }
        // Valgrind cannot run a binary with its debug info: count stripped copies.
        let stripped = temporaryDirectory("stripped") + "/shopy"
        if (try? FileManager.default.copyItem(atPath: shopy, toPath: stripped)) != nil,
           spawn(["/usr/bin/env", "strip", "-g", stripped], environment: env).status == 0,
           let helloCount = startupInstructions([hello], environment: env),
           let shopyCount = startupInstructions([stripped, "--version"], environment: env) {
            print("  callgrind, linking and runtime start until the main thread first parks: shopy \(Money.grouped(shopyCount)), "
                  + "hello \(Money.grouped(helloCount)) instructions (\(String(format: "%.2f", Double(shopyCount) / Double(helloCount)))×)")
        }
        // With Scripts/valgrind-sigsuspend-shim.c preloaded valgrind follows each program to its
        // end: the whole run's instructions, the command's own work included.
        if let shim = valgrindShim(), FileManager.default.isExecutableFile(atPath: stripped) {
            var shimEnv = env
            shimEnv["LD_PRELOAD"] = shim
            if let helloCount = startupInstructions([hello], environment: shimEnv),
               let versionCount = startupInstructions([stripped, "--version"], environment: shimEnv),
               let likesCount = startupInstructions([stripped, "likes"], environment: shimEnv) {
                func ratio(_ count: Int) -> String { String(format: "%.2f", Double(count) / Double(helloCount)) }
                print("  callgrind, whole run (LD_PRELOAD valgrind-sigsuspend-shim): hello \(Money.grouped(helloCount)), "
                      + "shopy --version \(Money.grouped(versionCount)) (\(ratio(versionCount))×), shopy likes \(Money.grouped(likesCount)) (\(ratio(likesCount))×) instructions")
            }
        }
    } else {
        print("start-up: no swiftc to build the Foundation hello world; skipped")
    }

    // 4. A search (100 items as JSON) against the emulator: whole-process wall time beside the
    // Python urllib reference (taken in turn), and its peak RSS.
    do {
        let emulator = Emulator()
        defer { emulator.stop() }
        let searchArgs = [shopy, "search", "생활", "--format", "json", "--size", "100"]
        let pythonArgs = [python, repository + "/Benchmarks/python/search.py", emulator.base, "생활", "100"]
        for _ in 0..<3 {
            _ = spawnMeasured(searchArgs, environment: emulator.environment(home: home))
            _ = spawnMeasured(pythonArgs, environment: emulator.environment(home: home))
        }
        var shopyWall: [Double] = [], pythonWall: [Double] = []
        for _ in 0..<runs {
            let a = spawnMeasured(searchArgs, environment: emulator.environment(home: home))
            precondition(a.status == 0, "shopy search failed with \(a.status)")
            shopyWall.append(a.wall)
            let b = spawnMeasured(pythonArgs, environment: emulator.environment(home: home))
            precondition(b.status == 0, "the Python script failed with \(b.status)")
            pythonWall.append(b.wall)
        }
        print(String(format: "search --size 100 against the emulator: shopy %.1f ms, Python urllib + json + cleaning %.1f ms: %.2f× faster (goal ≥ 2×) [%d runs each, in turn, median]",
                     median(shopyWall) * 1000, median(pythonWall) * 1000, median(pythonWall) / median(shopyWall), runs))
        var rss: [Int] = []
        for _ in 0..<max(5, runs / 3) {
            let argv = [shopy, "search", "생활", "--format", "json", "--size", "100"]
            rss.append(peakRSS(argv, environment: emulator.environment(home: home)) ?? spawnMeasured(argv, environment: emulator.environment(home: home)).maxRSSKiB)
        }
        var baseline: [Int] = []
        for _ in 0..<3 { if let kib = peakRSS([shopy, "--version"], environment: emulator.environment(home: home)) { baseline.append(kib) } }
        print(String(format: "peak RSS of shopy search --size 100: %.1f MiB (goal ≤ 30 MiB); of shopy --version: %.1f MiB [/usr/bin/time]",
                     Double(rss.max() ?? 0) / 1024, Double(baseline.max() ?? 0) / 1024))
    }
    print()
}
