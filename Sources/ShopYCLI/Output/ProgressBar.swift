import ShopYCore
import ShopYBase

/// A progress bar on stderr, only when stderr is a terminal. A value: the bar's state is
/// the sink's status line (kept under the sink's lock; clearing when none is shown does nothing).
struct ProgressBar: Sendable {
    let io: IO
    let total: Int
    let keyword: String
    let enabled: Bool

    init(context: Context, total: Int, keyword: String) {
        self.io = context.io
        self.total = total
        self.keyword = Sanitizer.clean(keyword)
        self.enabled = context.io.stderrIsTerminal && !context.io.quiet
    }

    func update(scanned: Int) {
        guard enabled else { return }
        io.stderr.showStatus(Self.line(keyword: keyword, scanned: scanned, total: total, columns: io.columns))
    }

    func finish() {
        guard enabled else { return }
        io.stderr.clearStatus()
    }

    /// `scanning 방충망 ████░░░░ 300/1,000`, within `columns − 1`: the count always shows;
    /// the bar shrinks first (24 cells down to 4, then none), then the keyword is cut, then
    /// "scanning" goes.
    static func line(keyword: String, scanned: Int, total: Int, columns: Int) -> String {
        let room = max(10, columns - 1)
        let count = "\(Money.grouped(min(scanned, total)))/\(Money.grouped(total))"
        let words = "scanning " + keyword
        func bar(_ width: Int) -> String {
            let done = min(width, scanned * width / max(1, total))
            return String(repeating: "█", count: done) + String(repeating: "░", count: width - done)
        }
        let spare = room - DisplayWidth.of(words) - DisplayWidth.of(count) - 2
        if spare >= 4 { return words + " " + bar(min(24, spare)) + " " + count }
        let keywordRoom = room - DisplayWidth.of("scanning ") - DisplayWidth.of(count) - 1
        if keywordRoom >= 4 { return DisplayWidth.truncate(words, toWidth: DisplayWidth.of("scanning ") + keywordRoom) + " " + count }
        return DisplayWidth.truncate(count, toWidth: room)
    }
}
