import ShopYCore
import ShopYBase

/// What `likes clear` and `catalog clear` say, as notices: how many went, where the backup is and
/// how to restore it. The path is cleaned (SHOPY_HOME is the user's, but it reaches a terminal)
/// and quoted for the shell when it needs it.
enum ClearedWithBackup {
    static func report(_ count: Int, _ noun: (one: String, many: String), backup: String?, whenEmpty: TerminalText,
                       restore: String, context: Context) -> ExitCode {
        guard let backup else {
            context.diagnostics.notice(whenEmpty)
            return .ok
        }
        context.diagnostics.notice("cleared \(Money.grouped(count)) \(count == 1 ? noun.one : noun.many); backup: \(backup)")
        context.diagnostics.notice("restore with: \(restore) \(shellWord(Sanitizer.clean(backup)))")
        return .ok
    }

    /// `word` as one shell word: as it is when it holds nothing the shell would read, else in
    /// single quotes.
    static func shellWord(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { c in
            (c.value > 0x7F && !c.properties.isWhitespace) || "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%".unicodeScalars.contains(c)
        }
        if plain && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
