import ShopYCore

extension PathWatcher {
    /// A watcher that prints each transition as one `shopy: …` line on `sink`.
    public static func announcing(to sink: OutputSink, monitor: PathMonitor) -> PathWatcher {
        PathWatcher(monitor: monitor) { event in
            sink.line("shopy: " + PathWatcher.describe(event))
            sink.flush()
        }
    }
}
