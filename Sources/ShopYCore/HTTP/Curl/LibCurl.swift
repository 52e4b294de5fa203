#if os(Linux)
import Foundation
import CShopYShim

/// libcurl, opened with dlopen at the first request: commands that never touch the network pay
/// nothing for it, and a machine without it still runs everything else.
enum LibCurl {
    /// What is opened when `SHOPY_LIBCURL` does not name another file.
    static let defaultName = "libcurl.so.4"

    /// Loaded once per process (thread-safe: a static let is initialised once), or why it
    /// cannot be used.
    static let loaded: Result<Void, TransportError> = load(ProxyEnvironment.processEnvironment("SHOPY_LIBCURL"))

    /// curl_version()'s words ("libcurl/7.88.1 OpenSSL/3.0.19 …"), asked for only when wanted:
    /// libcurl builds that text by initialising every library it names (OpenLDAP reads its
    /// configuration files): work a request never needs.
    static var version: String? {
        guard case .success = loaded else { return nil }
        return String(cString: cshopy_curl_version())
    }

    private static func load(_ override: String?) -> Result<Void, TransportError> {
        let name = override.flatMap { $0.isEmpty ? nil : $0 } ?? defaultName
        // dlopen of a FIFO would block forever: a path must be a regular file (links followed).
        var info = stat()
        if name.contains("/"), stat(name, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            return .failure(.unavailable(library: name, reason: "\(name) is \(FileIO.kind(ofMode: info.st_mode)), not a regular file"))
        }
        var error = [CChar](repeating: 0, count: 512)
        let status = error.withUnsafeMutableBufferPointer { buffer in
            cshopy_curl_load(name, buffer.baseAddress, buffer.count)
        }
        guard status == 0 else {
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.unavailable(library: name, reason: reason))
        }
        return .success(())
    }

    /// curl_easy_strerror's words for a CURLcode.
    static func describe(_ code: Int32) -> String {
        guard let text = cshopy_curl_easy_strerror(code) else { return "curl error \(code)" }
        return String(cString: text)
    }
}
#endif
import ShopYBase
