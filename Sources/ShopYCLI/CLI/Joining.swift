/// `joined(separator:)` for the texts every start builds (the commands' specs, the config keys'
/// scopes). The standard library's is generic code compiled without our metadata flag
/// (Package.swift), and so is appending a Substring with `+=`: the first call for each kind of
/// sequence looks protocol conformances up at run time, a scan of every conformance record in
/// the binary (some 200 k instructions each). This uses String's concrete appends only.
extension Sequence where Element == Substring {
    func joinedText(separator: String) -> String {
        var out = ""
        for (i, part) in enumerated() {
            if i > 0 { out.append(separator) }
            out.append(contentsOf: part)
        }
        return out
    }
}

extension Sequence where Element == String {
    func joinedText(separator: String) -> String { lazy.map { $0[...] }.joinedText(separator: separator) }
}
