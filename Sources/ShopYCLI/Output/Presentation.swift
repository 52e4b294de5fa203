import ShopYCore
import ShopYBase

// The two output decisions every presenter shares, each made here and nowhere else.

extension Optional where Wrapped == OutputFormat {
    /// The format asked for, else the default: a table on a terminal, TSV in a pipe or a file.
    public func resolved(for io: IO) -> OutputFormat { self ?? (io.stdoutIsTerminal ? .table : .tsv) }
}

extension IO {
    /// A JSON document on stdout: pretty-printed, one newline after it.
    public func writeJSON(_ value: JSONValue) {
        stdout.write(bytes: JSONWriter.serialize(value, pretty: true) + [0x0A])
    }
}
