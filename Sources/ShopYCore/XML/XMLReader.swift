import ShopYBase
/// A small, bounded, non-validating XML reader for the answers of 11번가's Open API: elements,
/// character data, CDATA sections, comments and processing instructions; the five predefined
/// entities and numeric character references, and nothing else.
///
/// Everything from the network is hostile, so: no DTD is read at all (a `<!DOCTYPE` is refused
/// at once, which also makes entity expansion attacks such as "billion laughs" bad data in
/// microseconds), no other entity is known, nesting stops at `XMLLimits.maxDepth`, elements and
/// attributes are counted, names and references are bounded, and NUL, surrogates and references
/// past U+10FFFF are refused. Control characters in text are kept: they are data, and every
/// text is sanitized before a terminal sees it.
package enum XMLReader {
    /// Parses a whole document given as UTF-8 (checked here). The root element is returned.
    package static func parse(_ bytes: [UInt8], limits: XMLLimits = XMLLimits()) throws(XMLError) -> Element {
        guard bytes.count <= limits.maxBytes else { throw XMLError(offset: nil, reason: "is larger than \(XMLLimits.size(limits.maxBytes))") }
        guard bytes.withUnsafeBufferPointer(JSONParser.isValidUTF8) else { throw XMLError(offset: nil, reason: "is not valid UTF-8") }
        return try bytes.withUnsafeBufferPointer { buffer throws(XMLError) in
            var parser = Parser(buffer, limits: limits)
            return try parser.document()
        }
    }

    /// The `encoding` of the XML declaration at the start of `bytes` (ASCII in every encoding
    /// an answer may use), or nil when there is no declaration or it names none.
    package static func declaredEncoding(_ bytes: ArraySlice<UInt8>) -> String? {
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        let head = bytes[start..<min(bytes.endIndex, start + 256)]
        guard head.starts(with: Array("<?xml".utf8)), let end = head.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = String(decoding: head[head.startIndex..<end], as: UTF8.self)
        guard let key = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        guard let close = rest.firstIndex(of: quote) else { return nil }
        return String(rest[..<close])
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        let limits: XMLLimits
        var i = 0
        var elements = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>, limits: XMLLimits) {
            self.bytes = bytes
            self.limits = limits
        }

        func fail(_ reason: String, at offset: Int? = nil) -> XMLError { XMLError(offset: offset ?? i, reason: reason) }

        func starts(_ literal: StaticString) -> Bool {
            let n = literal.utf8CodeUnitCount
            guard i + n <= bytes.count else { return false }
            let p = literal.utf8Start
            for k in 0..<n where bytes[i + k] != p[k] { return false }
            return true
        }

        static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

        mutating func skipSpace() {
            while i < bytes.count, Parser.isSpace(bytes[i]) { i += 1 }
        }

        /// Moves past `terminator`, which must come; `what` names the construct for the error.
        mutating func skip(past terminator: StaticString, what: String) throws(XMLError) {
            let start = i
            while i < bytes.count {
                if starts(terminator) {
                    i += terminator.utf8CodeUnitCount
                    return
                }
                i += 1
            }
            throw fail("has \(what) that never ends", at: start)
        }

        /// Comments, processing instructions and white space: what may stand outside the root.
        mutating func misc() throws(XMLError) {
            while true {
                skipSpace()
                if starts("<!--") {
                    i += 4
                    try skip(past: "-->", what: "a comment")
                } else if starts("<?") {
                    i += 2
                    try skip(past: "?>", what: "a processing instruction")
                } else if starts("<!DOCTYPE") || starts("<!doctype") {
                    throw fail("declares a DTD (shopy reads no DTD, so no entity of its own)")
                } else {
                    return
                }
            }
        }

        mutating func document() throws(XMLError) -> Element {
            if starts("\u{FEFF}") { i += 3 }
            try misc()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "<") else { throw fail(i < bytes.count ? "does not start with an element" : "has no element") }
            let root = try element()
            try misc()
            guard i == bytes.count else { throw fail("has more after its root element") }
            return root
        }

        static func isNameByte(_ b: UInt8) -> Bool {
            (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x3A || b == 0x2D || b == 0x2E || b >= 0x80
        }

        mutating func name() throws(XMLError) -> Range<Int> {
            let start = i
            while i < bytes.count, Parser.isNameByte(bytes[i]) { i += 1 }
            guard i > start else { throw fail("has a tag without a name") }
            guard i - start <= limits.maxNameBytes else { throw fail("has a name longer than \(limits.maxNameBytes) bytes", at: start) }
            return start..<i
        }

        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }

        /// A start tag's attributes (read and checked, then dropped: no answer needs them).
        /// Returns whether the tag closed itself (`/>`).
        mutating func attributes() throws(XMLError) -> Bool {
            var count = 0
            while true {
                let hadSpace = i < bytes.count && Parser.isSpace(bytes[i])
                skipSpace()
                guard i < bytes.count else { throw fail("ends inside a tag") }
                if bytes[i] == UInt8(ascii: ">") {
                    i += 1
                    return false
                }
                if starts("/>") {
                    i += 2
                    return true
                }
                guard hadSpace else { throw fail("has a malformed tag") }
                count += 1
                guard count <= limits.maxAttributes else { throw fail("has a tag with more than \(limits.maxAttributes) attributes") }
                _ = try name()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else { throw fail("has an attribute without a value") }
                i += 1
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else { throw fail("has an attribute value without quotes") }
                let quote = bytes[i]
                i += 1
                var scratch: [UInt8] = []
                while true {
                    guard i < bytes.count else { throw fail("ends inside an attribute value") }
                    let b = bytes[i]
                    if b == quote { break }
                    if b == UInt8(ascii: "<") { throw fail("has '<' in an attribute value") }
                    if b == UInt8(ascii: "&") {
                        try reference(into: &scratch)
                    } else {
                        i += 1
                    }
                }
                i += 1
            }
        }

        /// `&…;` at `i`: the predefined entities and numeric references, appended as UTF-8.
        mutating func reference(into out: inout [UInt8]) throws(XMLError) {
            let start = i
            i += 1
            var end = i
            while end < bytes.count, end - i <= 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else { throw fail("has an '&' that starts no reference", at: start) }
            let body = UnsafeBufferPointer(rebasing: bytes[i..<end])
            i = end + 1
            if body.first == UInt8(ascii: "#") {
                var value: UInt32 = 0
                var digits = body.dropFirst()
                let hex = digits.first == UInt8(ascii: "x")
                if hex { digits = digits.dropFirst() }
                guard !digits.isEmpty, digits.count <= 8 else { throw fail("has a malformed character reference", at: start) }
                for d in digits {
                    let v: UInt32
                    switch d {
                    case 0x30...0x39: v = UInt32(d - 0x30)
                    case 0x61...0x66 where hex: v = UInt32(d - 0x61 + 10)
                    case 0x41...0x46 where hex: v = UInt32(d - 0x41 + 10)
                    default: throw fail("has a malformed character reference", at: start)
                    }
                    value = value * (hex ? 16 : 10) + v
                }
                guard value != 0, let scalar = Unicode.Scalar(value) else {
                    throw fail("refers to a character that cannot be (\(hex ? "U+" + String(value, radix: 16, uppercase: true) : String(value)))", at: start)
                }
                out.append(contentsOf: String(scalar).utf8)
                return
            }
            switch String(decoding: body, as: UTF8.self) {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "apos": out.append(UInt8(ascii: "'"))
            case "quot": out.append(UInt8(ascii: "\""))
            default:
                throw fail("uses the entity '&\(Sanitizer.clean(String(decoding: body.prefix(12), as: UTF8.self)));' (only the predefined and numeric ones are read)", at: start)
            }
        }

        /// An element at `i` (`<` seen) with everything inside it, without recursion: the open
        /// elements are a stack, bounded by `maxDepth`.
        mutating func element() throws(XMLError) -> Element {
            struct Open {
                var name: Range<Int>
                var text: [UInt8]
                var children: [Element]
            }
            var stack: [Open] = []
            func make(_ open: Open, _ parser: Parser) -> Element {
                Element(name: parser.text(open.name), text: String(decoding: open.text, as: UTF8.self), children: open.children)
            }
            while true {
                // At a start tag.
                i += 1
                let tag = try name()
                elements += 1
                guard elements <= limits.maxElements else { throw fail("has more than \(limits.maxElements) elements") }
                let empty = try attributes()
                if empty {
                    let done = Element(name: text(tag), text: "", children: [])
                    if stack.isEmpty { return done }
                    stack[stack.count - 1].children.append(done)
                } else {
                    guard stack.count < limits.maxDepth else { throw fail("nests elements deeper than \(limits.maxDepth)") }
                    stack.append(Open(name: tag, text: [], children: []))
                }
                // Content until the next start tag.
                while true {
                    guard i < bytes.count else { throw fail("ends inside <\(text(stack[stack.count - 1].name))>") }
                    let b = bytes[i]
                    if b == UInt8(ascii: "<") {
                        if starts("</") {
                            i += 2
                            let closing = try name()
                            skipSpace()
                            guard i < bytes.count, bytes[i] == UInt8(ascii: ">") else { throw fail("has a malformed end tag") }
                            i += 1
                            let open = stack.removeLast()
                            guard bytes[closing].elementsEqual(bytes[open.name]) else {
                                throw fail("closes <\(text(open.name))> with </\(text(closing))>", at: closing.lowerBound)
                            }
                            let done = make(open, self)
                            if stack.isEmpty { return done }
                            stack[stack.count - 1].children.append(done)
                        } else if starts("<![CDATA[") {
                            i += 9
                            let start = i
                            try skip(past: "]]>", what: "a CDATA section")
                            stack[stack.count - 1].text.append(contentsOf: bytes[start..<(i - 3)])
                        } else if starts("<!--") {
                            i += 4
                            try skip(past: "-->", what: "a comment")
                        } else if starts("<?") {
                            i += 2
                            try skip(past: "?>", what: "a processing instruction")
                        } else if starts("<!") {
                            throw fail("has a declaration inside an element")
                        } else {
                            break  // a child element
                        }
                    } else if b == UInt8(ascii: "&") {
                        try reference(into: &stack[stack.count - 1].text)
                    } else {
                        let start = i
                        while i < bytes.count, bytes[i] != UInt8(ascii: "<"), bytes[i] != UInt8(ascii: "&") {
                            guard bytes[i] != 0 else { throw fail("has a NUL character") }
                            i += 1
                        }
                        stack[stack.count - 1].text.append(contentsOf: bytes[start..<i])
                    }
                }
            }
        }
    }
}

/// What one document may hold.
package struct XMLLimits: Sendable {
    /// The document's bytes (after decoding). A page of 200 products is about 150 KB.
    package var maxBytes = 8 << 20
    package var maxDepth = 32
    package var maxElements = 100_000
    package var maxAttributes = 32
    package var maxNameBytes = 128

    package init() {}

    /// "8 MiB", "512 KiB", "100 bytes".
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}

/// Why a document was not read: where (nil when it was refused as a whole: too large, not
/// UTF-8), and what was wrong.
package struct XMLError: Error, Equatable, Sendable, CustomStringConvertible {
    package var offset: Int?
    package var reason: String
    package var description: String { "the XML \(reason)" + (offset.map { " (at byte \($0 + 1))" } ?? "") }
}

/// An element: its name, its character data (text, CDATA and references, in order) and its
/// child elements. Attributes are not kept. (Nested, so that it never meets Foundation's
/// XMLElement on Apple platforms.)
extension XMLReader {
package struct Element: Sendable, Equatable {
    package var name: String
    package var text: String
    package var children: [Element]

    package init(name: String, text: String, children: [Element]) {
        self.name = name
        self.text = text
        self.children = children
    }

    /// The first child called `name`.
    package func child(_ name: String) -> Element? { children.first { $0.name == name } }

    /// Every child called `name`, in order.
    package func children(named name: String) -> [Element] { children.filter { $0.name == name } }
}
}
