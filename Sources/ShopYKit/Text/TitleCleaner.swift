import Foundation
// Provisional: replaced by the real cleaner.
public enum TitleCleaner {
    public static func clean(_ raw: String) -> String {
        var out = ""
        var inTag = false
        for ch in raw {
            if ch == "<" { inTag = true; continue }
            if ch == ">" && inTag { inTag = false; continue }
            if !inTag { out.append(ch) }
        }
        return out.replacingOccurrences(of: "&amp;", with: "&").split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
