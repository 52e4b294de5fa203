import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// The CA certificates a secure connection trusts when not the system's: `SSL_CERT_FILE` (a
/// PEM file) and `SSL_CERT_DIR` (a directory of hashed PEM files), the variables OpenSSL and
/// the curl tool read, set for a proxy or security software that inspects TLS. Empty values
/// count as unset; either one replaces the system's store.
public struct TrustedCertificates: Equatable, Sendable {
    public var file: String?
    public var directory: String?

    public init(file: String? = nil, directory: String? = nil) {
        self.file = file
        self.directory = directory
    }

    public static func fromEnvironment(_ lookup: (String) -> String? = ProxyEnvironment.processEnvironment) -> TrustedCertificates {
        func value(_ name: String) -> String? {
            guard let text = lookup(name), !text.isEmpty else { return nil }
            return text
        }
        return TrustedCertificates(file: value("SSL_CERT_FILE"), directory: value("SSL_CERT_DIR"))
    }

    /// Why the file cannot be used, checked before the TLS library opens it: a FIFO or a
    /// device would be opened and waited on with no deadline (OpenSSL reads it in the
    /// handshake). A missing file is left to the library, which says so at once.
    public func unusable() -> String? {
        guard let file else { return nil }
        var info = stat()
        guard stat(file, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFREG else { return "SSL_CERT_FILE is \(FileIO.kind(ofMode: info.st_mode)): \(Sanitizer.clean(file))" }
        return nil
    }
}
