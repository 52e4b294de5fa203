// shopy-bench widget: `shopy widget` wall time beside `shopy --version`, with the API a server
// that accepts and never answers; the CPU and the requests of one `shopy widget refresh`.
import Foundation
import ShopYCore
import ShopYCLI
import ShopYTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback listener that accepts connections and never answers (they are held open).
final class SilentServer: @unchecked Sendable {
    let port: Int
    private var held: [Int32] = []

    init() {
        let listener = try! LoopbackListener()
        port = listener.port
        Thread.detachNewThread { [self] in
            while true {
                let client = listener.accept()
                if client < 0 { return }
                held.append(client)
            }
        }
    }
}

func widgetBench(runs: Int) {
    print("## shopy widget (\(runs) runs each, interleaved, median)")
    let silent = SilentServer()
    let deadHome = temporaryDirectory("widget-dead")
    let dead = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SHOPY_HOME": deadHome, "SHOPY_API_BASE": "http://127.0.0.1:\(silent.port)",
                "NAVER_CLIENT_ID": "bench-id", "NAVER_CLIENT_SECRET": "bench-secret"]
    // The first call starts the refresh, which hangs on the silent API (holding the lock): every
    // measured call below is "due" and finds the refresh running — the slowest path.
    _ = spawn([shopy, "widget"], environment: dead)
    let freshHome = temporaryDirectory("widget-fresh")
    let fresh = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SHOPY_HOME": freshHome]
    _ = spawn([shopy, "widget", "refresh"], environment: fresh)
    var version: [Double] = [], due: [Double] = [], current: [Double] = [], waybar: [Double] = []
    for _ in 0..<runs {
        version.append(spawn([shopy, "--version"], environment: fresh).seconds)
        due.append(spawn([shopy, "widget"], environment: dead).seconds)
        current.append(spawn([shopy, "widget"], environment: fresh).seconds)
        waybar.append(spawn([shopy, "widget", "--format", "waybar", "--family", "medium"], environment: fresh).seconds)
    }
    let v = median(version)
    print("shopy --version                                          \(ms(v))")
    print("shopy widget, API never answers (due, refresh running)   \(ms(median(due)))  \(String(format: "%.2f×", median(due) / v))")
    print("shopy widget, timeline current                           \(ms(median(current)))  \(String(format: "%.2f×", median(current) / v))")
    print("shopy widget --format waybar --family medium             \(ms(median(waybar)))  \(String(format: "%.2f×", median(waybar) / v))")
    print("goal: ≤ 30 ms median and ≤ 1.2× shopy --version")

    // One refresh against the emulator: its CPU and the requests it sends.
    let emulator = Emulator()
    defer { emulator.stop() }
    let home = temporaryDirectory("widget-refresh")
    let env = emulator.environment(home: home, ["SHOPY_WIDGET_BACKGROUND": "off"])
    func requests() -> Int {
        emulatorControl(emulator.base, "/_emulator/stats")["requests"]?.intValue ?? -1
    }
    for (label, show) in [("default set (status, likes, popular:신발)", nil as String?),
                          ("status, likes, 2 popular sections", "status,likes,popular:신발,popular:옷")] {
        if let show { _ = spawn([shopy, "widget", "configure", "--show", show], environment: env) }
        var cpu: [Double] = [], wall: [Double] = []
        let before = requests()
        for _ in 0..<min(runs, 9) {
            let run = spawnMeasured([shopy, "widget", "refresh"], environment: env)
            cpu.append(run.cpu)
            wall.append(run.wall)
        }
        let perRefresh = Double(requests() - before) / Double(min(runs, 9))
        print("refresh, \(label): CPU \(ms(median(cpu))), wall \(ms(median(wall))), \(String(format: "%.1f", perRefresh)) requests")
    }
    print()
}
