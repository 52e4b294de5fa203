/// `$BROWSER` by its convention: a colon-separated list of commands, tried in turn; each one is
/// split into words without a shell (single and double quotes and backslash escapes honoured;
/// nothing is expanded or run through `sh`); in each word `%s` stands for the link (made inert to
/// a shell, `SafeLink.shellInert`: the entry may be a shell's script) and `%%` for a literal
/// `%`; a command without `%s` gets the link as its last argument.
package enum BrowserVariable {
    /// One entry: the program as written and the words after it, placeholders not yet filled.
    package struct Entry: Equatable, Sendable {
        package var words: [String]

        package var program: String { words[0] }

        /// The argv for `link`: `%s` replaced by it (the link stays one argument), `%%` by `%`;
        /// the link appended when no word holds `%s`.
        package func argv(for link: String) -> [String] {
            var placed = false
            var argv = words.map { word -> String in
                var out = ""
                var chars = word.makeIterator()
                while let c = chars.next() {
                    guard c == "%" else { out.append(c); continue }
                    switch chars.next() {
                    case "s": out += SafeLink.shellInert(link); placed = true
                    case "%": out.append("%")
                    case let other?: out.append("%"); out.append(other)
                    case nil: out.append("%")
                    }
                }
                return out
            }
            if !placed { argv.append(link) }
            return argv
        }
    }

    /// The entries of `value`; an entry that is empty, or has an unclosed quote or a trailing
    /// backslash, is left out (it cannot be run as meant).
    package static func entries(_ value: String) -> [Entry] {
        CommandWords.commands(value, separator: ":").compactMap { words in
            guard let words, !words.isEmpty else { return nil }
            return Entry(words: words)
        }
    }
}
