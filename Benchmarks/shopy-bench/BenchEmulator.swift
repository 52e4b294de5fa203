// The emulator every benchmark that needs a server starts: one helper for its start-up and for
// the environment of a shopy that talks to it.
import Foundation
import ShopYTestSupport

/// A `shopy-emulator` on an ephemeral port.
final class Emulator {
    let process = Process()
    let base: String

    init(_ options: [String] = []) {
        process.executableURL = URL(fileURLWithPath: emulatorBinary)
        process.arguments = ["--port", "0", "--client-id", "bench-id", "--client-secret", "bench-secret"] + options
        let pipe = Pipe()
        process.standardOutput = pipe
        try! process.run()
        base = (ChildProcess.firstLine(of: pipe) ?? "").split(separator: " ").last!.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The environment of a `shopy` that talks to this emulator with the bench's keys, its store
    /// in `home`; `extra` adds or replaces variables.
    func environment(home: String, _ extra: [String: String] = [:]) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "SHOPY_HOME": home, "SHOPY_API_BASE": base,
         "NAVER_CLIENT_ID": "bench-id", "NAVER_CLIENT_SECRET": "bench-secret", "LANG": "C.UTF-8"].merging(extra) { $1 }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
