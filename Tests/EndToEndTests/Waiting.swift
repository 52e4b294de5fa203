import Foundation
import XCTest
@testable import ShopYCLI

// Waiting for other processes: on their output where they print what the test waits for, on
// the widget refresh's lock where a refresh is what it waits for, and by polling only where
// nothing tells (a file another process writes).

/// Polls `condition` every 20 ms until it holds (true) or `seconds` pass (false): for what
/// another process does that no pipe or lock tells.
func eventually(within seconds: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(20_000)
    }
    return true
}

/// The first line `pipe` delivers that `matches`, waiting up to `seconds` for it (nil at the
/// end of the output or the time). The pipe is drained to its end afterwards, so the writer
/// never blocks on it.
func firstLine(of pipe: Pipe, within seconds: Double = 20, where matches: @escaping @Sendable (String) -> Bool) -> String? {
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

/// Waits until no widget refresh runs in `home`: a started refresh holds the refresh lock from
/// the moment its bar spawns it until it ends, so once the lock is free every refresh started
/// so far has ended (and written its lines to widget.log). False if one still runs after `seconds`.
func waitForWidgetRefreshes(home: String, within seconds: Double = 30) -> Bool {
    let fd = open(home + "/" + WidgetRefreshLock.fileName, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return false }
    let free = DispatchSemaphore(value: 0)
    let waiter = Thread {
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        flock(fd, LOCK_UN)
        close(fd)
        free.signal()
    }
    waiter.start()
    return free.wait(timeout: .now() + seconds) == .success
}

/// Whether a widget refresh holds the lock in `home` right now.
func widgetRefreshRunning(home: String) -> Bool {
    guard let fd = WidgetRefreshLock.tryLock(directory: home) else { return true }
    close(fd)
    return false
}

/// Whether `semaphore` is signalled within `seconds`, waited for off the test's task (a
/// blocked thread of the cooperative pool could hold up the very task that signals it).
func signalled(_ semaphore: DispatchSemaphore, within seconds: Double) async -> Bool {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: semaphore.wait(timeout: .now() + seconds) == .success) }
    }
}

/// SIGKILLs `process` `seconds` from now and waits for it to end: a kill at a moment the test
/// chooses (a random one lands anywhere in a write).
func killAfter(_ process: Process, seconds: Double) {
    usleep(UInt32(max(0, seconds) * 1_000_000))
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
}
