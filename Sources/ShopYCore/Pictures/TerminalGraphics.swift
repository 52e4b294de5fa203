/// How pictures are drawn on the terminal at hand: kitty's graphics protocol, iTerm2's inline
/// images, sixel, or Unicode block symbols in colour (which every colour terminal shows).
public enum PictureProtocol: String, CaseIterable, Sendable {
    case kitty, iterm, sixel, symbols
}

/// `--images` and the config key `images`.
public enum ImagesMode: String, CaseIterable, Sendable {
    case auto, kitty, iterm, sixel, symbols, off
}

/// The colours a terminal draws symbols in.
public enum SymbolColors: Sendable, Equatable {
    case truecolor, indexed240, indexed16, monochrome
}

/// What chafa's terminal database says a terminal draws (`ChafaTerminal.probe`).
public struct TerminalCapabilities: Sendable, Equatable {
    public var kitty = false
    public var iterm = false
    public var sixel = false
    public var colors = SymbolColors.indexed240

    public init(kitty: Bool = false, iterm: Bool = false, sixel: Bool = false, colors: SymbolColors = .indexed240) {
        self.kitty = kitty
        self.iterm = iterm
        self.sixel = sixel
        self.colors = colors
    }
}

/// The decision: which protocol, which colours, whether tmux must pass the picture through, and
/// in a few words why (for --verbose).
public struct GraphicsChoice: Sendable, Equatable {
    public var drawing: PictureProtocol
    public var colors: SymbolColors
    /// The picture's escape sequences go to the outer terminal through tmux's passthrough.
    public var tmuxPassthrough: Bool
    public var why: String
}

public enum TerminalGraphics {
    /// Chooses from `mode`, the environment and chafa's terminal database (`capabilities`, nil
    /// when libchafa is missing: the caller shows the link then). Nil: no picture (`off` says why).
    ///
    /// - `auto` asks chafa's database, then the environment for terminals an older database does
    ///   not know (Ghostty, kitty through KITTY_WINDOW_ID, WezTerm, Warp, Konsole 22.04+), kitty
    ///   first, then iTerm2, then sixel, else symbols. No picture on TERM=dumb or without TERM,
    ///   nor when colour is off (NO_COLOR, --color never): a picture is nothing but colour.
    /// - Inside tmux or screen `auto` draws symbols (a multiplexer drops or garbles image
    ///   sequences unless passthrough is configured); naming a protocol (`--images kitty`, or the
    ///   config key) is that configuration: in tmux its sequences are wrapped for passthrough
    ///   (tmux's `allow-passthrough on` must be set).
    public static func choose(_ mode: ImagesMode, environment: [String: String], capabilities: TerminalCapabilities?,
                              color: Bool) -> Result<GraphicsChoice, PictureFailure> {
        let term = environment["TERM"] ?? ""
        let tmux = !(environment["TMUX"] ?? "").isEmpty || term.hasPrefix("tmux")
        let screen = !tmux && (term.hasPrefix("screen") || !(environment["STY"] ?? "").isEmpty)
        let colors = capabilities?.colors ?? .indexed240
        switch mode {
        case .off:
            return .failure(.off("pictures are off (--images off)"))
        case .kitty, .iterm, .sixel, .symbols:
            let drawing = PictureProtocol(rawValue: mode.rawValue)!
            return .success(GraphicsChoice(drawing: drawing, colors: colors == .monochrome ? .indexed240 : colors,
                                           tmuxPassthrough: tmux && drawing != .symbols, why: "--images \(mode.rawValue)"))
        case .auto:
            break
        }
        if term.isEmpty || term == "dumb" {
            return .failure(.off("the terminal (TERM=\(term.isEmpty ? "unset" : term)) draws no pictures; --images symbols draws them anyway"))
        }
        if !color {
            return .failure(.off("colour is off (NO_COLOR or --color never), and a picture is all colour; --images symbols draws it anyway"))
        }
        if tmux || screen {
            return .success(GraphicsChoice(drawing: .symbols, colors: colors, tmuxPassthrough: false,
                                           why: "inside \(tmux ? "tmux" : "screen"): symbols (name a protocol with --images to pass it through)"))
        }
        let found = capabilities ?? TerminalCapabilities()
        if found.kitty { return .success(GraphicsChoice(drawing: .kitty, colors: colors, tmuxPassthrough: false, why: "chafa's terminal database: kitty graphics")) }
        if found.iterm { return .success(GraphicsChoice(drawing: .iterm, colors: colors, tmuxPassthrough: false, why: "chafa's terminal database: iTerm2 images")) }
        if found.sixel { return .success(GraphicsChoice(drawing: .sixel, colors: colors, tmuxPassthrough: false, why: "chafa's terminal database: sixel")) }
        if let (drawing, variable) = fromEnvironment(environment) {
            return .success(GraphicsChoice(drawing: drawing, colors: .truecolor, tmuxPassthrough: false, why: "\(variable): \(drawing.rawValue)"))
        }
        return .success(GraphicsChoice(drawing: .symbols, colors: colors, tmuxPassthrough: false, why: "no graphics protocol known for TERM=\(term): symbols"))
    }

    /// Terminals an older chafa database does not know, told by the variables they set.
    static func fromEnvironment(_ environment: [String: String]) -> (PictureProtocol, String)? {
        func has(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        let term = environment["TERM"] ?? "", program = environment["TERM_PROGRAM"] ?? ""
        if term == "xterm-kitty" { return (.kitty, "TERM=xterm-kitty") }
        if has("KITTY_WINDOW_ID") { return (.kitty, "KITTY_WINDOW_ID") }
        if term == "xterm-ghostty" || program.lowercased() == "ghostty" || has("GHOSTTY_BIN_DIR") { return (.kitty, "Ghostty") }
        if program == "WarpTerminal" { return (.kitty, "TERM_PROGRAM=WarpTerminal") }
        if program == "WezTerm" || has("WEZTERM_EXECUTABLE") { return (.iterm, "WezTerm") }
        if program == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2" { return (.iterm, "iTerm2") }
        if let version = environment["KONSOLE_VERSION"].flatMap({ Int($0) }), version >= 220370 { return (.sixel, "KONSOLE_VERSION=\(version)") }
        if term == "foot" || term.hasPrefix("foot-") || term == "mlterm" || has("MLTERM") { return (.sixel, "TERM=\(term)") }
        return nil
    }

    /// `payload` wrapped for tmux's passthrough: `ESC P tmux;`, the bytes with every ESC doubled, `ESC \`.
    public static func tmuxWrapped(_ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = Array("\u{1B}Ptmux;".utf8)
        out.reserveCapacity(payload.count + payload.count / 16 + 16)
        for byte in payload {
            if byte == 0x1B { out.append(0x1B) }
            out.append(byte)
        }
        out += [0x1B, 0x5C]
        return out
    }
}
