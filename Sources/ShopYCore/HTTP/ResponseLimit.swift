/// The most an answer may take, whatever the server announces: beyond a cap the transport stops
/// reading at once (a gzip bomb, an endless chunked body, a flood of header fields) and the
/// command ends with exit 65. A search page is about 20 KB; these leave three orders of margin.
public enum ResponseLimit: Equatable, Sendable, CaseIterable {
    /// The body, counted after decompression.
    case body
    /// All header fields together (status line included).
    case headers

    public static let maxBodyBytes = 16 << 20
    public static let maxHeaderBytes = 64 << 10

    public var bytes: Int {
        switch self {
        case .body: return Self.maxBodyBytes
        case .headers: return Self.maxHeaderBytes
        }
    }

    /// "16 MiB", "64 KiB".
    public var size: String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }
}
