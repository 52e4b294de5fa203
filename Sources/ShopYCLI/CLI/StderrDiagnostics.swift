import ShopYCore

/// The one place diagnostics are printed: `shopy: …` for a notice (left out with --quiet),
/// `shopy: warning: …` for a warning and `hint: …` for a hint (always), on stderr. A notice that
/// `wraps` is wrapped to the terminal's width under its prefix; in a pipe or a log every
/// diagnostic is one line.
struct StderrDiagnostics: DiagnosticsSink {
    let io: IO

    func report(_ diagnostic: Diagnostic) {
        let prefix: String
        switch diagnostic.kind {
        case .notice:
            if io.quiet { return }
            prefix = "shopy: "
        case .warning: prefix = "shopy: warning: "
        case .hint: prefix = "hint: "
        }
        let line = prefix + diagnostic.message.rendered
        if diagnostic.wraps && io.stderrIsTerminal {
            io.stderr.write(Help.wrap(line, width: io.columns, indent: 0, hanging: prefix.count).joined(separator: "\n") + "\n")
        } else {
            io.stderr.line(line)
        }
    }
}
