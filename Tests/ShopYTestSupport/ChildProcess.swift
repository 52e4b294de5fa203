// Running another program from a test or a benchmark: the one helper that starts it, feeds its
// stdin, drains stdout and stderr concurrently (a child that fills one pipe while we wait on the
// other would never finish), then waits, within a time limit; and the first line a started
// server writes, read with its output drained.

import Foundation

/// What a finished process left.
public struct ProcessOutput: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var seconds: Double
    /// How it ended: `.exit` with `status`, or `.uncaughtSignal` with the signal in `status`.
    public var reason: Process.TerminationReason

    public var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    public var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}

/// A started process whose stdout and stderr are being drained; `finish` waits for it.
public final class RunningProcess: @unchecked Sendable {
    public let process: Process
    private let started: Date
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var out = Data(), err = Data()

    fileprivate init(_ process: Process, started: Date, stdout: Pipe, stderr: Pipe, stdin: Pipe, input: Data?) {
        self.process = process
        self.started = started
        DispatchQueue.global().async(group: group) { [self] in
            let data = stdout.fileHandleForReading.readDataToEndOfFile()
            lock.withLock { out = data }
        }
        DispatchQueue.global().async(group: group) { [self] in
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            lock.withLock { err = data }
        }
        DispatchQueue.global().async {
            if let input { try? stdin.fileHandleForWriting.write(contentsOf: input) }
            try? stdin.fileHandleForWriting.close()
        }
    }

    public var processIdentifier: Int32 { process.processIdentifier }

    /// Waits until both pipes are at their end and the process has exited. After `timeout`
    /// seconds it is terminated and this throws.
    public func finish(timeout: Double = 60) throws -> ProcessOutput {
        if group.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            _ = group.wait(timeout: .now() + 5)
            let command = ([process.executableURL?.path ?? "?"] + (process.arguments ?? [])).joined(separator: " ")
            throw TestSupportError("'\(command)' did not finish within \(timeout) s")
        }
        process.waitUntilExit()
        return lock.withLock {
            ProcessOutput(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                          stderr: String(decoding: err, as: UTF8.self), seconds: Date().timeIntervalSince(started),
                          reason: process.terminationReason)
        }
    }
}

public enum ChildProcess {
    /// Starts `executable` with `arguments`. `environment` nil inherits ours; `stdin` is written
    /// (then closed) beside the draining, so a large input cannot deadlock either.
    public static func start(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                             stdin: Data? = nil) throws -> RunningProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        let started = Date()
        try process.run()
        return RunningProcess(process, started: started, stdout: out, stderr: err, stdin: input, input: stdin)
    }

    /// Runs `executable` to its end (see `start`); throws when it cannot start or does not
    /// finish within `timeout` seconds (it is terminated then).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           stdin: Data? = nil, timeout: Double = 60) throws -> ProcessOutput {
        try start(executable, arguments, environment: environment, stdin: stdin).finish(timeout: timeout)
    }

    /// The first line `pipe` delivers that `matches` (a server naming its address or port),
    /// waiting up to `seconds` for it; nil at the end of the output or the time. The pipe is
    /// drained to its end afterwards, so the writer never blocks on it.
    public static func firstLine(of pipe: Pipe, within seconds: Double = 20,
                                 where matches: @escaping @Sendable (String) -> Bool = { _ in true }) -> String? {
        final class Found: @unchecked Sendable {
            let lock = NSLock()
            var line: String?
        }
        let found = Found()
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            let handle = pipe.fileHandleForReading
            var pending = Data()
            var signalled = false
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                guard !signalled else { continue }
                pending.append(chunk)
                while !signalled, let newline = pending.firstIndex(of: 0x0A) {
                    let text = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    if matches(text) {
                        found.lock.withLock { found.line = text }
                        signalled = true
                        done.signal()
                    }
                }
            }
            if !signalled { done.signal() }
        }
        reader.start()
        _ = done.wait(timeout: .now() + seconds)
        return found.lock.withLock { found.line }
    }
}
