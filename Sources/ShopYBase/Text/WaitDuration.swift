import Foundation

/// How long until a wait ends, as every hold message says it (Coupang's 429 hold and hourly
/// budget, in errors and in `shopy status`): whole minutes, rounded up, carried into hours.
///
/// `59 s` → `1 min`, `3599 s` → `1 h`, `3601 s` → `1 h 1 min`, `86399 s` → `24 h`. The distance
/// is first cut to whole seconds: a hold's end is stored rounded up to a whole second while "now"
/// is not, so a one-hour hold reads up to a second longer; that second must not make it `1 h 1 min`.
public enum WaitDuration {
    /// `58 min`, `1 h`, `1 h 1 min`, `25 h`; `0 min` for a wait that is over.
    public static func text(seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0 min" }
        let whole = min(seconds.rounded(.down), Double(Int32.max))
        // A wait still running is at least a minute, even when under a second is left.
        let minutes = max(1, Int((whole / 60).rounded(.up)))
        let hours = minutes / 60, rest = minutes % 60
        if hours == 0 { return "\(rest) min" }
        return rest == 0 ? "\(hours) h" : "\(hours) h \(rest) min"
    }

    /// `14:05:09 (in 58 min)`: the local time a wait ends (with its date when not today) and
    /// its distance from `now`.
    public static func until(_ date: Date, now: Date) -> String {
        let local = Timestamp.local(date)
        let today = Timestamp.local(now).prefix(10) == local.prefix(10)
        return (today ? String(local.dropFirst(11)) : local) + " (in \(text(seconds: date.timeIntervalSince(now))))"
    }
}
