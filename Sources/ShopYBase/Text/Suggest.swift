/// Did-you-mean.
public enum Suggest {
    /// Words longer than this (in UTF-8 bytes) get no suggestion: no command, option, value or
    /// key is near one, and the edit distance of a 100,000-byte argument would cost seconds.
    public static let maxWordBytes = 256

    /// The candidate nearest to `word`, when near enough to be a likely typo; none for a word
    /// over `maxWordBytes` (nor against a candidate over it).
    public static func closest(to word: String, among candidates: [String]) -> String? {
        guard word.utf8.count <= maxWordBytes else { return nil }
        let candidates = candidates.filter { $0.utf8.count <= maxWordBytes }
        let lowered = word.lowercased()
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if best == nil || distance < best!.1 { best = (candidate, distance) }
        }
        guard let (candidate, distance) = best else { return nil }
        let stripped = lowered.drop(while: { $0 == "-" }).count
        let allowed = stripped <= 3 ? 1 : (stripped <= 6 ? 2 : 3)
        if distance <= allowed { return candidate }
        // A prefix of exactly one candidate (`--siz` → `--size`).
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(lowered) && lowered.count >= 3 }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Damerau–Levenshtein (optimal string alignment) distance over Characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[x.count][y.count]
    }
}
