/// Writes `--verbose` lines. Secrets never reach it: callers pass redacted text. The core only
/// hands it lines; where they go (stderr, under a progress bar) the command line decides.
import ShopYBase

public struct Tracer: Sendable {
    let write: (@Sendable (String) -> Void)?

    public init(write: (@Sendable (String) -> Void)?) { self.write = write }

    public static let off = Tracer(write: nil)

    public var isOn: Bool { write != nil }

    public func callAsFunction(_ line: @autoclosure () -> String) {
        guard let write else { return }
        write("shopy: " + Sanitizer.clean(line()))
    }
}
