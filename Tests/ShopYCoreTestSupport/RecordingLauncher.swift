// A launcher for the tests of openers and clipboard tools: it records what would run.

import Foundation
import ShopYCore

/// Records what would run; `installed` names the programs "on PATH"; `outcome` says how a
/// program (by its name) ends, else it exits 0.
public final class RecordingLauncher: Launcher, @unchecked Sendable {
    public struct Call: Equatable {
        public var argv: [String]
        public var input: [UInt8]?
        public var attached: Bool

        public init(argv: [String], input: [UInt8]?, attached: Bool) {
            self.argv = argv
            self.input = input
            self.attached = attached
        }
    }
    private let lock = NSLock()
    private var _calls: [Call] = []
    public let installed: Set<String>
    public let outcome: [String: LaunchOutcome]

    public init(installed: Set<String>, outcome: [String: LaunchOutcome] = [:]) {
        self.installed = installed
        self.outcome = outcome
    }

    public var calls: [Call] {
        lock.lock()
        defer { lock.unlock() }
        return _calls
    }

    public func find(_ name: String, searchPath: String?) -> String? {
        installed.contains(name) ? "/usr/bin/" + name : nil
    }

    public func run(_ argv: [String], input: [UInt8]?, attached: Bool, wait: Double) -> LaunchOutcome {
        lock.lock()
        _calls.append(Call(argv: argv, input: input, attached: attached))
        lock.unlock()
        return outcome[(argv[0] as NSString).lastPathComponent] ?? .exited(0)
    }
}
