import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Coupang Partners' request signature (the partners guide's HMAC section, as public clients
/// implement it; Fixtures/README.md cites them):
///
///     Authorization: CEA algorithm=HmacSHA256, access-key={AK}, signed-date={yyMMdd'T'HHmmss'Z'}, signature={hex}
///     signature = hex(HMAC-SHA256(secretKey, signedDate + METHOD + path + query))
///
/// with the date in UTC, the path without the host, and the query exactly as sent, without
/// `?`. A signature is made for each request: the gateway answers a reused or stale one with 401
/// "Specified signature is expired.".
public enum CoupangSigner {
    /// `261201T093005Z` for 2026-12-01 09:30:05 UTC.
    public static func signedDate(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return two((parts.tm_year + 1900) % 100) + two(parts.tm_mon + 1) + two(parts.tm_mday) + "T"
            + two(parts.tm_hour) + two(parts.tm_min) + two(parts.tm_sec) + "Z"
    }

    /// The date a `signed-date` names, or nil when it is not one (`yyMMdd'T'HHmmss'Z'`, 20yy).
    public static func date(signed text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count == 14, b[6] == UInt8(ascii: "T"), b[13] == UInt8(ascii: "Z") else { return nil }
        func two(_ at: Int) -> Int? {
            guard (0x30...0x39).contains(b[at]), (0x30...0x39).contains(b[at + 1]) else { return nil }
            return Int(b[at] - 0x30) * 10 + Int(b[at + 1] - 0x30)
        }
        guard let year = two(0), let month = two(2), let day = two(4), let hour = two(7), let minute = two(9), let second = two(11),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        let values = [year, month, day, hour, minute, second]
        var parts = tm()
        parts.tm_year = Int32(2000 + values[0] - 1900)
        parts.tm_mon = Int32(values[1] - 1)
        parts.tm_mday = Int32(values[2])
        parts.tm_hour = Int32(values[3])
        parts.tm_min = Int32(values[4])
        parts.tm_sec = Int32(values[5])
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The text that is signed.
    public static func message(signedDate: String, method: String, path: String, query: String) -> String {
        signedDate + method + path + query
    }

    /// The Authorization header's value for one request.
    public static func authorization(method: String, path: String, query: String, credentials: CoupangCredentials,
                                     at date: Date) throws(HMACSHA256.Unavailable) -> String {
        let signed = signedDate(date)
        let signature = try HMACSHA256.hex(key: credentials.secretKey, message: message(signedDate: signed, method: method, path: path, query: query))
        return "CEA algorithm=HmacSHA256, access-key=\(credentials.accessKey), signed-date=\(signed), signature=\(signature)"
    }

    /// The parts of an Authorization header, or nil when it is not one (the emulator checks them).
    public static func parse(_ header: String) -> (accessKey: String, signedDate: String, signature: String)? {
        guard header.hasPrefix("CEA ") else { return nil }
        var fields: [String: String] = [:]
        for part in header.dropFirst(4).split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { return nil }
            fields[pair[0]] = pair[1]
        }
        guard fields["algorithm"] == "HmacSHA256", let key = fields["access-key"], let date = fields["signed-date"],
              let signature = fields["signature"] else { return nil }
        return (key, date, signature)
    }
}
