import Foundation
import XCTest
@testable import ShopYCLI

// Waiting for other processes: on their output where they print what the test waits for
// (ChildProcess.firstLine), on the widget refresh's lock where a refresh is what it waits for,
// and by polling only where nothing tells (`eventually`; both in ShopYTestSupport).

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

/// SIGKILLs `process` `seconds` from now and waits for it to end: a kill at a moment the test
/// chooses (a random one lands anywhere in a write).
func killAfter(_ process: Process, seconds: Double) {
    usleep(UInt32(max(0, seconds) * 1_000_000))
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
}
