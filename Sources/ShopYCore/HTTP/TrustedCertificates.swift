import Foundation

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
}
