/// Splits a command line into words without a shell: words on spaces, tabs and newlines; '…'
/// keeps everything literally, "…" too except that a backslash escapes the next character; a
/// backslash outside quotes escapes the next character. Nothing is expanded, globbed or run
/// through `sh`. With a separator (`$BROWSER`'s `:`), the text is a list of commands, split at
/// each separator outside quotes.
package enum CommandWords {
    /// Each command's words; nil for a command with an unclosed quote or a trailing backslash.
    package static func commands(_ text: String, separator: Character? = nil) -> [[String]?] {
        var commands: [[String]?] = []
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        func endWord() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        func endCommand(broken: Bool) {
            endWord()
            commands.append(broken ? nil : words)
            words = []
        }
        for c in text {
            if escaped {
                word.append(c)
                escaped = false
                continue
            }
            if let q = quote {
                if c == q { quote = nil } else if c == "\\" && q == "\"" { escaped = true } else { word.append(c) }
                continue
            }
            switch c {
            case "\\": escaped = true; inWord = true
            case "'", "\"": quote = c; inWord = true
            case " ", "\t", "\n": endWord()
            case separator: endCommand(broken: false)
            default: word.append(c); inWord = true
            }
        }
        endCommand(broken: quote != nil || escaped)
        return commands
    }
}
