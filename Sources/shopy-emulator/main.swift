/// shopy-emulator: the Naver Shopping search API on loopback (see `shopy-emulator --help`).
/// Everything lives in ShopYEmulator; this file only wires the command line, the listening
/// line tests wait for, and the signals that end the process.
import Dispatch
import ShopYEmulator
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes straight to a file descriptor: no stdio buffer to flush, so the listening line
/// reaches a parent reading the pipe at once.
func emit(_ text: String, to fd: Int32) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

func fail(_ message: String, status: Int32) -> Never {
    emit("shopy-emulator: \(message)\n", to: 2)
    exit(status)
}

let server: EmulatorServer
do throws(EmulatorCommandLineError) {
    let config = try EmulatorCommandLine.parse(Array(CommandLine.arguments.dropFirst()))
    server = EmulatorServer(config: config, catalog: try EmulatorCommandLine.catalog(for: config))
} catch .helpRequested {
    emit(EmulatorCommandLine.usage, to: 1)
    exit(0)
} catch {
    fail(error.description, status: error.exitCode)
}

// A client that hangs up mid-answer must not kill the server.
signal(SIGPIPE, SIG_IGN)
do {
    try server.start()
} catch {
    fail(error.description, status: 69)  // EX_UNAVAILABLE
}
emit("shopy-emulator listening on \(server.baseURL)\n", to: 1)

// Signals arrive as Dispatch events (the default actions are switched off so they cannot
// kill the process first); either one stops the server and exits 0.
var signalSources: [DispatchSourceSignal] = []
for signalNumber in [SIGINT, SIGTERM] {
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
    source.setEventHandler {
        server.stop()
        exit(0)
    }
    source.resume()
    signalSources.append(source)
}
dispatchMain()
