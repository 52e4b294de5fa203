import Foundation
#if os(Linux)
import CShopYShim
#elseif canImport(CommonCrypto)
import CommonCrypto
#endif
import ShopYBase

/// HMAC-SHA256 (RFC 2104 with SHA-256), from the system's crypto library, never hand-written:
/// libcrypto (OpenSSL 1.1 or 3) opened with dlopen at the first signature on Linux, as libcurl
/// is; CommonCrypto on Apple platforms. Checked against RFC 4231's test vectors
/// (`Tests/ShopYCoreTests/Crypto/HMACSHA256Tests.swift`).
public enum HMACSHA256 {
    /// Why no signature can be made: the library that was tried and the loader's words.
    public struct Unavailable: Error, Equatable, Sendable {
        public var library: String
        public var reason: String
    }

    /// The libraries tried in turn when `SHOPY_LIBCRYPTO` names none: OpenSSL 3, then 1.1.
    public static let defaultLibraries = ["libcrypto.so.3", "libcrypto.so.1.1"]

    /// The 32-byte MAC of `message` under `key`.
    public static func mac(key: [UInt8], message: [UInt8]) throws(Unavailable) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        #if os(Linux)
        if case .failure(let error) = loaded { throw error }
        let status = key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in
                    cshopy_hmac_sha256(k.baseAddress, k.count, m.baseAddress, m.count, o.baseAddress)
                }
            }
        }
        guard status == 0 else { throw Unavailable(library: libraryName, reason: "HMAC failed") }
        #elseif canImport(CommonCrypto)
        key.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                out.withUnsafeMutableBytes { o in
                    CCHmac(CCHmacAlgorithm(kCCHmacAlgSHA256), k.baseAddress, k.count, m.baseAddress, m.count, o.baseAddress)
                }
            }
        }
        #else
        throw Unavailable(library: "a crypto library", reason: "this platform has neither libcrypto nor CommonCrypto")
        #endif
        return out
    }

    /// The MAC in lowercase hex (what Coupang's `signature=` carries).
    public static func hex(key: String, message: String) throws(Unavailable) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in try mac(key: Array(key.utf8), message: Array(message.utf8)) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    #if os(Linux)
    /// The library opened (or the last one tried).
    private static var libraryName: String {
        switch loaded {
        case .success(let name): return name
        case .failure(let error): return error.library
        }
    }

    /// Loaded once per process (a static let is initialised once, thread-safely).
    private static let loaded: Result<String, Unavailable> = load(ProxyEnvironment.processEnvironment("SHOPY_LIBCRYPTO"))

    private static func load(_ override: String?) -> Result<String, Unavailable> {
        let names = override.flatMap { $0.isEmpty ? nil : [$0] } ?? defaultLibraries
        var failure = Unavailable(library: names[0], reason: "not found")
        for name in names {
            // dlopen of a FIFO would block: a named path must be a regular file (links followed).
            var info = stat()
            if name.contains("/"), stat(name, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                return .failure(Unavailable(library: name, reason: "\(name) is \(FileIO.kind(ofMode: info.st_mode)), not a regular file"))
            }
            var error = [CChar](repeating: 0, count: 512)
            let status = error.withUnsafeMutableBufferPointer { cshopy_crypto_load(name, $0.baseAddress, $0.count) }
            if status == 0 { return .success(name) }
            let reason = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // The first library's words are the ones worth showing, unless it exists and is broken.
            if name == names[0] || !reason.contains("cannot open shared object file") {
                failure = Unavailable(library: name, reason: reason)
                if !reason.contains("cannot open shared object file") { return .failure(failure) }
            }
        }
        return .failure(failure)
    }
    #endif
}
