// Where the repository is, for tests and benchmarks that read its files (Fixtures/, docs/,
// Sources/, Scripts/): found from the caller's own source path, whatever folder it sits in.

import Foundation

public enum Repository {
    /// The directory holding Package.swift above `file` (the caller's #filePath by default).
    public static func root(_ file: String = #filePath) -> URL {
        var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) { return directory }
            directory.deleteLastPathComponent()
        }
        preconditionFailure("no Package.swift above \(file)")
    }

    /// The repository's Fixtures folder.
    public static func fixtures(_ file: String = #filePath) -> URL { root(file).appendingPathComponent("Fixtures") }
}
