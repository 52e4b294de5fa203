import Foundation
import ShopYCore
import ShopYBase
/// What `shopy __complete SHELL -- WORD…` answers: the candidates for the last word of a
/// command line, from the command declarations (commands, subcommands, options, choices) and
/// from the store (rows of the last listing, liked ids, history, saved sections, config keys).
/// The shell scripts of `shopy completions` call it on every Tab.
public struct Completer {
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    public struct Candidate: Equatable, Sendable {
        public var value: String
        public var description: String
    }

    /// What a shell does with the answer.
    public enum Answer: Equatable, Sendable {
        case candidates([Candidate])
        /// Complete file names (likes export/import).
        case files
    }

    /// The line a script prints instead of candidates when files should complete.
    public static let filesDirective = "__shopy_files__"

    let commands: [CommandSpec]
    let store: SettingsStore?
    /// The clock (Coupang's rows of the last listing are offered for an hour).
    let now: @Sendable () -> Date

    public init(commands: [CommandSpec], store: SettingsStore?, now: @escaping @Sendable () -> Date = { Date() }) {
        self.commands = commands
        self.store = store
        self.now = now
    }

    /// `words`: the words after `shopy`, the last one the word being completed (maybe empty).
    public func complete(_ words: [String]) -> Answer {
        let words = words.isEmpty ? [""] : words
        let current = words[words.count - 1]
        let before = Array(words.dropLast())
        guard let name = before.first else {
            if current.hasPrefix("-") { return filtered([("--help", "Show help information."), ("--version", "Show the version.")], current) }
            return filtered(commands.map { ($0.name, $0.abstract) } + [("help", "Show help for shopy or one command.")], current)
        }
        if name == "help" {
            // `help a b <Tab>`: the subcommands under `a b`, at any depth.
            if before.count == 1 && current.hasPrefix("-") { return filtered([("--man", "Write the manual page shopy(1) as roff.")], current) }
            var level = commands
            for word in before.dropFirst() {
                guard let spec = level.first(where: { $0.name == word }) else { return .candidates([]) }
                level = spec.subcommands
            }
            var found = level.map { ($0.name, $0.abstract) }
            if before.count == 1 { found += HelpTopics.names.map { ($0, "help topic") } }
            return filtered(found, current)
        }
        guard var spec = commands.first(where: { $0.name == name }) else { return .candidates([]) }
        var path = name
        var rest = Array(before.dropFirst())
        // Down the subcommands, to any depth (`widget configure`, `a b c`).
        while let sub = rest.first.flatMap({ word in spec.subcommands.first { $0.name == word } }) {
            spec = sub
            path += " " + sub.name
            rest.removeFirst()
        }
        // The value of an option: `--sort <Tab>`, `-s <Tab>` or `--sort=<Tab>`.
        if current.hasPrefix("--"), let equals = current.firstIndex(of: "=") {
            let optionName = String(current[current.index(current.startIndex, offsetBy: 2)..<equals])
            guard let option = spec.option(named: optionName) else { return .candidates([]) }
            let prefix = String(current[...equals])
            return prefixed(values(for: option, path: path, words: rest), prefix: prefix, current: String(current[current.index(after: equals)...]))
        }
        // After an option that takes a value: its values; after one that may stand alone
        // (`--color`), its values and what would come without it.
        var found: [(String, String)] = []
        if let last = rest.last, let option = Self.option(last, in: spec), !option.isFlag {
            if option.bareValue == nil { return filtered(values(for: option, path: path, words: rest), current) }
            found = values(for: option, path: path, words: rest)
        }
        if current.hasPrefix("-") {
            let options = spec.options.filter { option in option.repeatable || !rest.contains("--" + option.name) }.map { ("--" + $0.name, $0.help) }
            return filtered(options, current)
        }
        let positionals = Self.positionals(rest, spec: spec)
        if !spec.subcommands.isEmpty && positionals.isEmpty {
            found += spec.subcommands.map { ($0.name, $0.abstract) }
        }
        switch path {
        case "search", "rank":
            found += history()
        case "like":
            // Liking by id takes the last listing's (or the catalog's) products.
            found += rest.contains("--id") ? listingIDs() : rows()
        case "open", "copy":
            found += rest.contains("--id") ? likedIDs() : rows()
            if path == "copy" && !positionals.isEmpty { found = [] }
        case "unlike":
            found += rest.contains("--id") ? likedIDs() : rows() + likedIDs()
        case "config get", "config unset":
            if positionals.isEmpty { found += ConfigKey.all.map { ($0.name, $0.help) } }
        case "config set":
            if positionals.isEmpty {
                found += ConfigKey.all.map { ($0.name, $0.help) }
            } else if positionals.count == 1, let key = ConfigKey.all.first(where: { $0.name == positionals[0] }) {
                found += key.choices.map { ($0, key.name) }
            }
        case "completions":
            if positionals.isEmpty { found += Shell.allCases.map { ($0.rawValue, "a script for \($0.rawValue)") } }
        case "likes export", "likes import":
            if positionals.isEmpty { return .files }
        default:
            break
        }
        return filtered(found, current)
    }

    static func option(_ word: String, in spec: CommandSpec) -> OptionSpec? {
        if word.hasPrefix("--") { return word.contains("=") ? nil : spec.option(named: String(word.dropFirst(2))) }
        if word.hasPrefix("-"), word.count == 2, let letter = word.dropFirst().first { return spec.option(short: letter) }
        return nil
    }

    /// The words that are not options nor option values (as the parser reads them: an option
    /// that may stand alone takes the next word only when it is one of its values).
    static func positionals(_ words: [String], spec: CommandSpec) -> [String] {
        var out: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word.hasPrefix("-") && word != "-" {
                if let option = option(word, in: spec), !option.isFlag, index < words.count,
                   option.bareValue == nil || option.choices.contains(words[index].lowercased()) {
                    index += 1
                }
                continue
            }
            out.append(word)
        }
        return out
    }

    func values(for option: OptionSpec, path: String, words: [String]) -> [(String, String)] {
        if !option.choices.isEmpty { return option.choices.map { ($0, option.name) } }
        switch (path, option.name) {
        case ("popular", "section"): return sections()
        case ("history", "remove"): return history()
        case ("rank", "product"): return likedIDs()
        default: return []
        }
    }

    // MARK: Values from the store (none when it cannot be read: a completion never fails)

    func rows() -> [(String, String)] {
        guard let listing = try? store?.read({ $0.lastListing }) else { return [] }
        if let liked = listing.likedIDs { return (0..<min(liked.count, 9_999)).map { (String($0 + 1), "like") } }
        return listing.showableRows(cutoff: coupangCutoff).map { ($0.row, Self.short($0.product.title)) }
    }

    func listingIDs() -> [(String, String)] {
        guard let listing = try? store?.read({ $0.lastListing }) else { return [] }
        return listing.showableRows(cutoff: coupangCutoff).map { ($0.product.productId, Self.short($0.product.title)) }
    }

    /// Coupang's rows of a listing saved before this are past their hour: not offered.
    var coupangCutoff: String { CoupangSource.listingCutoff(now: now()) }

    /// Liked ids with their titles; a large collection (issue 11's 100,000 likes) lists the ids
    /// alone, which needs no decoding, so that Tab stays quick.
    func likedIDs() -> [(String, String)] {
        guard let store, let collection = try? store.read({ $0.likes }) else { return [] }
        if collection.count > Self.likesWithTitles { return collection.ids.map { ($0, "liked") } }
        guard let likes = try? store.read({ try $0.allLikes() }) else { return [] }
        return likes.map { ($0.product.productId, Self.short($0.product.title)) }
    }

    static let likesWithTitles = 2_000

    func history() -> [(String, String)] {
        guard let history = try? store?.read({ $0.history }) else { return [] }
        // Local time for people, as the history table shows it.
        return history.map { ($0.query, "searched \(LocalTime.display($0.at))") }
    }

    func sections() -> [(String, String)] {
        let saved = (try? store?.read({ $0.popularSections })) ?? nil
        var out = (saved ?? []).map { ($0, "saved section") }
        for keyword in PopularCommand.naverSections + PopularCommand.catalogSections where !out.contains(where: { $0.0 == keyword }) {
            out.append((keyword, "built-in section"))
        }
        return out + history().filter { entry in !out.contains { $0.0 == entry.0 } }
    }

    static func short(_ text: String) -> String { DisplayWidth.truncate(Sanitizer.clean(text), toWidth: 60) }

    // MARK: Matching

    func filtered(_ pairs: [(String, String)], _ current: String) -> Answer {
        prefixed(pairs, prefix: "", current: current)
    }

    /// Candidates starting with `current`, each value written `prefix + value`; at most 500.
    /// Every shell shows the values in its list (zsh and fish their descriptions too), so both
    /// are held to `Sanitizer`: a description is cleaned, and a value it would change (controls,
    /// bidi overrides, invisible format characters) is left out, since a cleaned value would
    /// insert another word than the stored one.
    func prefixed(_ pairs: [(String, String)], prefix: String, current: String) -> Answer {
        var seen = Set<String>()
        var out: [Candidate] = []
        for (value, description) in pairs where value.hasPrefix(current) && !value.isEmpty {
            guard !Sanitizer.needsCleaning(value), seen.insert(value).inserted else { continue }
            out.append(Candidate(value: prefix + value, description: Sanitizer.clean(description)))
            if out.count == 500 { break }
        }
        return .candidates(out)
    }

    /// The answer as the shell's script reads it: bash one value a line (shell-escaped);
    /// zsh and fish `value<TAB>description` (they quote what they insert themselves).
    /// `asciiOnly` leaves out values with non-ASCII scalars (bash in a locale whose characters
    /// can hide ASCII bytes).
    public static func render(_ answer: Answer, shell: Shell, dropPrefix: String = "", asciiOnly: Bool = false) -> String {
        guard case .candidates(let candidates) = answer else { return filesDirective + "\n" }
        var out = ""
        for candidate in candidates where !asciiOnly || candidate.value.unicodeScalars.allSatisfy(\.isASCII) {
            var value = candidate.value
            if !dropPrefix.isEmpty, value.hasPrefix(dropPrefix) { value = String(value.dropFirst(dropPrefix.count)) }
            switch shell {
            case .bash: out += bashEscape(value) + "\n"
            case .zsh, .fish: out += value + "\t" + candidate.description + "\n"
            }
        }
        return out
    }

    /// bash reads the inserted text in the locale's characters, not in Swift's grapheme
    /// clusters: a `;` after a Prepend scalar (U+0600) or before a combining mark (U+0301) is
    /// one Character to Swift and still a `;` to bash. So every ASCII scalar but letters, digits
    /// and `-_./+@%:=,` is backslash-escaped on its own (`:` and `=` stay: bash splits the word
    /// being completed at them, see `dropPrefix`).
    static func bashEscape(_ value: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            if scalar.isASCII && !bashPlain.contains(scalar) { out.append("\\") }
            out.append(scalar)
        }
        return String(out)
    }

    static let bashPlain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+@%:=,".unicodeScalars)

    /// Whether bash in `environment`'s locale reads UTF-8 text so that an ASCII byte is always
    /// the ASCII character: true for UTF-8 and single-byte or EUC locales; false where a
    /// multibyte character may end in an ASCII byte (Shift JIS, Big5, GBK, GB18030, Johab), so
    /// that a backslash or quote inside a candidate could be taken into the character before it.
    public static func bashReadsASCIIAsASCII(environment: [String: String]) -> Bool {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        // Without a charset, glibc's zh_TW and zh_HK are Big5 and Big5-HKSCS.
        guard let dot = locale.firstIndex(of: ".") else { return !(locale.hasPrefix("zh_TW") || locale.hasPrefix("zh_HK")) }
        let charset = locale[locale.index(after: dot)...].prefix { $0 != "@" }.lowercased().filter { $0.isLetter || $0.isNumber }
        return !["sjis", "shiftjis", "cp932", "windows31j", "mskanji", "big5", "big5hkscs", "cp950", "gbk", "cp936", "gb18030", "johab"]
            .contains(charset)
    }
}
