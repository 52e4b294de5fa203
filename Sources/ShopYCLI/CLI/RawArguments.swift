import ShopYCore
/// The process's arguments as the kernel gave them: bytes, which need not be UTF-8.
///
/// `CommandLine.arguments` repairs invalid UTF-8 with U+FFFD, so a query with a stray Latin-1
/// byte would be sent as something the user never typed. shopy refuses it instead (64), naming
/// the argument and the byte offset.
public enum RawArguments {
    /// The arguments after the program name, or the usage error for the first one that is not
    /// valid UTF-8.
    public static func decode(_ arguments: [[UInt8]]) -> Result<[String], UsageError> {
        var decoded: [String] = []
        decoded.reserveCapacity(arguments.count)
        for (index, bytes) in arguments.enumerated() {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                let offset = firstInvalidOffset(bytes)
                return .failure(UsageError("argument \(index + 1) is not valid UTF-8 (byte \(offset + 1) of \(bytes.count))",
                                           hint: "use a UTF-8 locale and terminal, or convert the text with iconv"))
            }
            decoded.append(text)
        }
        return .success(decoded)
    }

    /// The arguments of this process after the program name, as bytes.
    public static func process() -> [[UInt8]] {
        var arguments: [[UInt8]] = []
        let argv = CommandLine.unsafeArgv
        for i in 1..<Int(CommandLine.argc) {
            guard let pointer = argv[i] else { continue }
            var bytes: [UInt8] = []
            var p = pointer
            while p.pointee != 0 {
                bytes.append(UInt8(bitPattern: p.pointee))
                p += 1
            }
            arguments.append(bytes)
        }
        return arguments
    }

    /// Offset of the first byte where decoding fails.
    static func firstInvalidOffset(_ bytes: [UInt8]) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: return offset
            }
        }
    }
}

extension ShopY {
    /// `main` for the real process: arguments from argv, refused when not UTF-8.
    public static func main(rawArguments: [[UInt8]], io: IO) async -> Int32 {
        switch RawArguments.decode(rawArguments) {
        case .success(let arguments):
            return await main(arguments, io: io)
        case .failure(let error):
            let code = report(error, io: io)
            io.stderr.flush()
            return code.rawValue
        }
    }
}
