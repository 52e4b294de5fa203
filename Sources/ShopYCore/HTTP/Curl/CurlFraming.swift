import ShopYBase

#if os(Linux)
/// Answers whose framing shopy refuses even when curl accepts them: a Content-Length that is
/// not one non-negative number, and a content encoding curl did not decode.
extension CurlTransfer {
    /// The encodings curl decodes for shopy (it asks for them with `Accept-Encoding`).
    static let decodedEncodings: Set<String> = ["identity", "gzip", "x-gzip", "deflate"]

    /// Why the headers of the final answer are malformed, or nil.
    static func framingProblem(_ fields: [(name: String, value: String)], decodes: Set<String>) -> String? {
        let lengths = Set(fields.filter { $0.name == "content-length" }.flatMap { $0.value.split(separator: ",").map { String($0).trimmingASCIIWhitespace() } })
        if !lengths.isEmpty {
            guard lengths.count == 1, let only = lengths.first, !only.isEmpty, only.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return "its Content-Length is not one non-negative number (\(Sanitizer.clean(lengths.sorted().joined(separator: ", "))))"
            }
        }
        for field in fields where field.name == "content-encoding" {
            for coding in field.value.split(separator: ",").map({ String($0).trimmingASCIIWhitespace().lowercased() }) where !coding.isEmpty && !decodes.contains(coding) {
                return "its content encoding '\(Sanitizer.clean(coding))' is not one shopy can decode"
            }
        }
        return nil
    }
}
#endif
