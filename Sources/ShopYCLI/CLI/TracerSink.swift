import ShopYCore

extension Tracer {
    /// `--verbose` lines on `sink` (stderr; they clear and redraw a progress bar); nil: off.
    public init(_ sink: OutputSink?) {
        self.init(write: sink.map { sink in { @Sendable line in sink.line(line) } })
    }
}
