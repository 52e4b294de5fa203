import Foundation
import ShopYCore

/// The likes that `likes refresh` and `likes alert` name: rows of the last listing or
/// productIds, each of which must be liked. Resolved before anything is sent or changed.
enum LikeSelection {
    static func resolve(_ targets: [LikeTarget], likes: LikeCollection, listing: LastListing?) throws -> [Like] {
        var chosen: [Like] = []
        var seen = Set<String>()
        for (target, product) in try LikeSupport.resolve(targets, listing: listing) {
            let id = product?.productId ?? target.text
            guard let like = try likes.like(id) else {
                throw UsageError("'\(Sanitizer.clean(target.text))' is not liked", hint: "'shopy likes' lists the likes and their ids")
            }
            if seen.insert(id).inserted { chosen.append(like) }
        }
        return chosen
    }

    /// Splits `--exec`'s command into argv without a shell: words on spaces, with '…' and "…"
    /// quoting and \ escapes. Nothing from the network is ever part of it.
    static func argv(_ command: String) throws(UsageError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in command {
            if escaped { word.append(c); escaped = false; inWord = true; continue }
            if let q = quote {
                if c == q { quote = nil } else if c == "\\" && q == "\"" { escaped = true } else { word.append(c) }
                continue
            }
            switch c {
            case "\\": escaped = true; inWord = true
            case "'", "\"": quote = c; inWord = true
            case " ", "\t", "\n":
                if inWord { words.append(word); word = ""; inWord = false }
            default: word.append(c); inWord = true
            }
        }
        if quote != nil || escaped { throw UsageError("--exec has an unclosed quote or a trailing backslash") }
        if inWord { words.append(word) }
        guard !words.isEmpty else { throw UsageError("--exec is empty") }
        return words
    }
}
