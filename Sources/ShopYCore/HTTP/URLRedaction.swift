/// Hides the userinfo of a URL (`http://user:pass@host` → `http://[redacted]@host`) wherever an
/// address is shown: `--verbose` lines and error messages. SHOPY_API_BASE may carry credentials
/// for a proxy; they are sent (URLSession turns them into Basic authentication) but never shown.
///
/// Textual, so that it works on text that is not a valid URL too (the invalid-URL error): the
/// authority is what follows `scheme://` up to the first `/`, `?` or `#`, and its userinfo is
/// everything before its last `@`. Without `://` there is no authority (RFC 3986), so nothing is
/// redacted (`mailto:a@b.c` is shown as typed).
public enum URLRedaction {
    public static let placeholder = "[redacted]"

    public static func redact(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let authorityStart = scheme.upperBound
        let rest = text[authorityStart...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? text.endIndex
        let authority = text[authorityStart..<authorityEnd]
        guard let at = authority.lastIndex(of: "@") else { return text }
        return String(text[..<authorityStart]) + placeholder + String(text[at...])
    }
}
