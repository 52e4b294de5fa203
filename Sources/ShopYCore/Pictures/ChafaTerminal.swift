import Foundation
import CShopYShim

/// A picture as the terminal gets it: the bytes chafa built from its pixels (nothing else: no
/// byte from the network reaches the terminal but through these pixels), and the cells it covers.
public struct RenderedPicture: Sendable, Equatable {
    public var bytes: [UInt8]
    public var columns: Int
    public var rows: Int
    public var drawing: PictureProtocol

    /// Symbols' rows, each a line of SGR colours and block characters (empty for pixel protocols).
    public var symbolRows: [[UInt8]] {
        guard drawing == .symbols else { return [] }
        return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(rows).map(Array.init)
    }
}

/// The size of a terminal cell in pixels: the window's (TIOCGWINSZ's pixel fields) when it says,
/// else 10 × 20, the common shape.
public struct CellSize: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public static let common = CellSize(width: 10, height: 20)
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }
}

/// libchafa: the terminal database and the drawing.
public enum ChafaTerminal {
    /// What chafa's terminal database says the terminal of `environment` draws; nil when libchafa
    /// cannot be loaded (`PictureLibrary.chafa.load` says why).
    public static func probe(environment: [String: String]) -> TerminalCapabilities? {
        guard PictureLibrary.chafa.load(environment: environment) == nil else { return nil }
        let entries = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { entries.forEach { free($0) } }
        var envp: [UnsafeMutablePointer<CChar>?] = entries + [nil]
        guard let info = envp.withUnsafeMutableBufferPointer({ cshopy_chafa_term_info_detect($0.baseAddress) }) else { return nil }
        defer { cshopy_chafa_term_info_free(info) }
        func has(_ seq: Int32) -> Bool { cshopy_chafa_term_info_have_seq(info, seq) == 1 }
        var found = TerminalCapabilities()
        found.kitty = has(CSHOPY_CHAFA_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1)
        found.iterm = has(CSHOPY_CHAFA_SEQ_BEGIN_ITERM2_IMAGE)
        found.sixel = has(CSHOPY_CHAFA_SEQ_BEGIN_SIXELS) && has(CSHOPY_CHAFA_SEQ_END_SIXELS)
        if has(CSHOPY_CHAFA_SEQ_SET_COLOR_FGBG_DIRECT) && has(CSHOPY_CHAFA_SEQ_SET_COLOR_FG_DIRECT) {
            found.colors = .truecolor
        } else if has(CSHOPY_CHAFA_SEQ_SET_COLOR_FGBG_256) && has(CSHOPY_CHAFA_SEQ_SET_COLOR_FG_256) {
            found.colors = .indexed240
        } else if has(CSHOPY_CHAFA_SEQ_SET_COLOR_FGBG_16) && has(CSHOPY_CHAFA_SEQ_SET_COLOR_FG_16) {
            found.colors = .indexed16
        } else {
            found.colors = .monochrome
        }
        return found
    }

    /// The cells a `width` × `height` picture covers at most `columns` × `rows`, its shape kept
    /// (a cell is `cell` pixels); at least one of each.
    public static func fit(width: Int, height: Int, columns: Int, rows: Int, cell: CellSize) -> (columns: Int, rows: Int) {
        guard width > 0, height > 0, columns > 0, rows > 0 else { return (0, 0) }
        let scale = min(Double(columns * cell.width) / Double(width), Double(rows * cell.height) / Double(height))
        let fitColumns = min(columns, max(1, Int((Double(width) * scale / Double(cell.width)).rounded())))
        let fitRows = min(rows, max(1, Int((Double(height) * scale / Double(cell.height)).rounded())))
        return (fitColumns, fitRows)
    }

    /// Draws `picture` in at most `columns` × `rows` cells as `choice` says, for the terminal of
    /// `environment`.
    public static func render(_ picture: DecodedPicture, choice: GraphicsChoice, columns: Int, rows: Int, cell: CellSize,
                              environment: [String: String]) -> Result<RenderedPicture, PictureFailure> {
        if let failure = PictureLibrary.chafa.load(environment: environment) { return .failure(failure) }
        // Symbols: a cell is two "pixels" tall for one wide, whatever the font's pixel size.
        let shape = choice.drawing == .symbols ? CellSize(width: 8, height: 16) : cell
        let (fitColumns, fitRows) = fit(width: picture.width, height: picture.height, columns: columns, rows: rows, cell: shape)
        guard fitColumns > 0, fitRows > 0 else { return .failure(.off("no room for the picture")) }
        let entries = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { entries.forEach { free($0) } }
        var envp: [UnsafeMutablePointer<CChar>?] = entries + [nil]
        guard let info = envp.withUnsafeMutableBufferPointer({ cshopy_chafa_term_info_detect($0.baseAddress) }) else {
            return .failure(.missingLibrary(.chafa, reason: "its terminal database did not answer"))
        }
        defer { cshopy_chafa_term_info_free(info) }
        var options = cshopy_chafa_options()
        options.pixel_mode = pixelMode(choice.drawing)
        options.canvas_mode = canvasMode(choice.colors)
        options.width_cells = Int32(fitColumns)
        options.height_cells = Int32(fitRows)
        options.cell_width = Int32(clamping: cell.width)
        options.cell_height = Int32(clamping: cell.height)
        var out: UnsafeMutablePointer<CChar>?
        var size = 0
        var error = [CChar](repeating: 0, count: 256)
        let status: Int32 = picture.pixels.withUnsafeBufferPointer { pixels in
            var image = cshopy_image(pixels: UnsafeMutablePointer(mutating: pixels.baseAddress), width: Int32(picture.width), height: Int32(picture.height))
            return error.withUnsafeMutableBufferPointer { cshopy_chafa_render(&image, &options, info, &out, &size, $0.baseAddress, $0.count) }
        }
        guard status == 0, let out else {
            let words = String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return .failure(.drawing(words))
        }
        defer { free(out) }
        var bytes = Array(UnsafeRawBufferPointer(start: out, count: size))
        if choice.drawing == .symbols {
            // Rows end where the canvas ends: a trailing newline or reset is left to the caller.
            while bytes.last == 0x0A { bytes.removeLast() }
        }
        if choice.tmuxPassthrough { bytes = TerminalGraphics.tmuxWrapped(bytes) }
        return .success(RenderedPicture(bytes: bytes, columns: fitColumns, rows: fitRows, drawing: choice.drawing))
    }

    static func pixelMode(_ drawing: PictureProtocol) -> Int32 {
        switch drawing {
        case .symbols: return CSHOPY_CHAFA_PIXEL_MODE_SYMBOLS
        case .sixel: return CSHOPY_CHAFA_PIXEL_MODE_SIXELS
        case .kitty: return CSHOPY_CHAFA_PIXEL_MODE_KITTY
        case .iterm: return CSHOPY_CHAFA_PIXEL_MODE_ITERM2
        }
    }

    static func canvasMode(_ colors: SymbolColors) -> Int32 {
        switch colors {
        case .truecolor: return CSHOPY_CHAFA_CANVAS_MODE_TRUECOLOR
        case .indexed240: return CSHOPY_CHAFA_CANVAS_MODE_INDEXED_240
        case .indexed16: return CSHOPY_CHAFA_CANVAS_MODE_INDEXED_16
        case .monochrome: return CSHOPY_CHAFA_CANVAS_MODE_FGBG_BGFG
        }
    }
}
