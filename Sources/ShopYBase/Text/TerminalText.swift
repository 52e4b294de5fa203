/// A line bound for a terminal, built so that text from the network (or argv, or a file) can only
/// reach it sanitized.
///
/// The only unsanitized parts are the program's own string literals (`StaticString`: they cannot
/// be made at run time). Every interpolated value, of whatever type, goes through
/// `Sanitizer.clean`, so `"liked: \(product.productId)"` cannot carry an ESC, a CSI or a bidi
/// override to the screen. There is no initializer from a run-time `String`: the way in is
/// interpolation, and interpolation cleans. Pieces that are already `TerminalText` (a styled
/// part, a described product) are appended as they are.
///
/// Commands write one with `OutputSink.line(_: TerminalText)`; the like/unlike steps and rank's
/// table lines are typed to return it, so a new path cannot forget to sanitize.
public struct TerminalText: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// What goes to the terminal: every foreign part cleaned.
    public package(set) var rendered: String

    public var description: String { rendered }

    public init(stringLiteral value: StaticString) {
        rendered = value.description
    }

    public init(stringInterpolation: Interpolation) {
        rendered = stringInterpolation.rendered
    }

    /// Foreign text, cleaned.
    public init(sanitizing text: String) {
        rendered = Sanitizer.clean(text)
    }

    public static let empty: TerminalText = ""

    public var isEmpty: Bool { rendered.isEmpty }

    public static func + (a: TerminalText, b: TerminalText) -> TerminalText {
        var joined = a
        joined.rendered += b.rendered
        return joined
    }

    public static func += (a: inout TerminalText, b: TerminalText) {
        a.rendered += b.rendered
    }

    /// Cut to `width` columns (whole Characters, with "…"): cutting cannot make text unsafe.
    public func truncated(toWidth width: Int) -> TerminalText {
        var cut = self
        cut.rendered = DisplayWidth.truncate(rendered, toWidth: width)
        return cut
    }

    public struct Interpolation: StringInterpolationProtocol, Sendable {
        public typealias StringLiteralType = StaticString
        var rendered = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            rendered.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: StaticString) {
            rendered += literal.description
        }

        /// Any value: its text, cleaned.
        public mutating func appendInterpolation<T>(_ value: T) {
            rendered += Sanitizer.clean(String(describing: value))
        }

        /// Text that is already safe (built the same way).
        public mutating func appendInterpolation(_ value: TerminalText) {
            rendered += value.rendered
        }
    }
}
