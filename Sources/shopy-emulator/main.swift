/// shopy-emulator: the Naver Shopping search API on loopback (see `shopy-emulator --help`).
/// Everything lives in ShopYEmulator; this file only wires the command line, the listening
/// line tests wait for, and the signals that end the process.
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

// SIGINT and SIGTERM are blocked in every thread (the mask is inherited by the server's
// threads, so this comes before start) and taken synchronously with sigwait below. Dispatch
// signal sources proved unreliable here: a SIGTERM from a parent process was sometimes lost.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

do {
    try server.start()
} catch {
    fail(error.description, status: 69)  // EX_UNAVAILABLE
}
emit("shopy-emulator listening on \(server.baseURL)\n", to: 1)

var received: Int32 = 0
while sigwait(&stopSignals, &received) != 0 {}
server.stop()
exit(0)
