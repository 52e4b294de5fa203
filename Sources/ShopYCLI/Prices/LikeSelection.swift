import ShopYCore

/// `--exec`'s command for `likes refresh`.
enum LikeSelection {
    /// Splits `--exec`'s command into argv without a shell (`CommandWords`: words on spaces,
    /// with '…' and "…" quoting and \ escapes). Nothing from the network is ever part of it.
    static func argv(_ command: String) throws(UsageError) -> [String] {
        guard let words = CommandWords.commands(command).first ?? nil else {
            throw UsageError("--exec has an unclosed quote or a trailing backslash")
        }
        guard !words.isEmpty else { throw UsageError("--exec is empty") }
        return words
    }
}
