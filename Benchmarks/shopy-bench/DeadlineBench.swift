// The deadline benchmark: how far past --timeout a command ends when the server trickles its body
// or never answers, and how soon a cancelled transfer ends. The tests check that these end at the
// deadline and not before, by what the server sees; how close, a figure of this machine, is here.
import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func deadlineBench(runs: Int) {
    print("## Deadlines: how far past --timeout a search ends, and how soon a cancel ends a transfer")
    let home = temporaryDirectory("deadline-home")
    let count = max(3, min(runs, 9))
    // What starting and ending a process costs (the deadline starts after it).
    let startup = median((0..<count).map { _ in spawn([shopy, "--version"], environment: [:]).seconds })

    // 1. `--timeout 1.5` against a body trickling at a byte every half second, and against a
    //    server that holds its answer for 30 s.
    for (name, options) in [("a trickling body (--fault slow)", ["--fault", "slow"]), ("no answer (--latency 30000)", ["--latency", "30000"])] {
        let emulator = Emulator(options)
        defer { emulator.stop() }
        var over: [Double] = []
        for _ in 0..<count {
            let run = spawn([shopy, "search", "방충망", "--timeout", "1.5"], environment: emulator.environment(home: home))
            precondition(run.status == 75, "shopy search ended with \(run.status), not the timeout's 75")
            over.append(run.seconds - startup - 1.5)
        }
        print("search --timeout 1.5, \(name): ends \(ms(median(over))) past it (worst \(ms(over.max() ?? .nan)); goal ≤ 100 ms) "
              + "[\(count) runs, median; start-up \(ms(startup)) aside]")
    }

    // 2. A request in flight (the server holds it), its task cancelled: until the send returns.
    do {
        let emulator = Emulator(["--latency", "30000"])
        defer { emulator.stop() }
        let request = HTTPRequest(url: URL(string: emulator.base + "/v1/search/shop.json?query=a")!,
                                  headers: [("X-Naver-Client-Id", "bench-id"), ("X-Naver-Client-Secret", "bench-secret")])
        var latencies: [Double] = []
        for _ in 0..<count {
            let ended = DispatchSemaphore(value: 0)
            let task = Task {
                _ = try? await SystemTransport.shared.send(request, deadline: .now.advanced(by: .seconds(60)))
                ended.signal()
            }
            usleep(300_000)  // in flight
            let cancelled = DispatchTime.now().uptimeNanoseconds
            task.cancel()
            ended.wait()
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - cancelled) / 1e9)
        }
        print("a transfer's task cancelled: it ends \(ms(median(latencies))) after (worst \(ms(latencies.max() ?? .nan)); goal ≤ 50 ms) "
              + "[\(count) runs, median]")
    }
    print()
}
