import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `show` and `browse` share to draw a picture: the `--images` option, the protocol chosen
/// for this terminal, the picture service of the composition root and the window's geometry.
enum PictureSetup {
    static let images = Option.value(
        "images", value: "mode",
        help: "Pictures: auto (default: what the terminal draws, from chafa's terminal database and the environment; symbols inside tmux or screen), kitty, iterm, sixel, symbols or off.",
        type: ValueType<ImagesMode>.choice(), default: .auto)

    /// The protocol for a picture on this terminal, or why there is none. `terminal`: whether
    /// the output is a terminal at all (a pipe gets no picture, whatever `mode` says).
    static func choice(_ mode: ImagesMode, context: Context, terminal: Bool) -> Result<GraphicsChoice, PictureFailure> {
        if mode == .off { return .failure(.off("pictures are off (--images off)")) }
        guard terminal else { return .failure(.off("stdout is not a terminal")) }
        let environment = context.io.environment
        if let failure = PictureLibrary.chafa.load(environment: environment) { return .failure(failure) }
        return TerminalGraphics.choose(mode, environment: environment, capabilities: ChafaTerminal.probe(environment: environment),
                                       color: context.io.useColor)
    }

    /// The picture service of this run: the context's transport (its proxies), the XDG cache.
    static func service(_ context: Context, trace: Tracer) -> PictureService {
        PictureService(transport: context.transport ?? SystemTransport.shared, cache: PictureCache(environment: context.io.environment),
                       environment: context.io.environment, trace: trace)
    }

    /// The window: rows and columns (LINES and COLUMNS first, as `IO.columns` reads them) and a
    /// cell's size in pixels when the terminal reports it.
    static func window(_ io: IO, fd: Int32 = 1) -> (rows: Int, columns: Int, cell: CellSize) {
        var size = winsize()
        #if canImport(Glibc)
        let measured = io.isProcessStdout && ioctl(fd, UInt(TIOCGWINSZ), &size) == 0
        #else
        let measured = io.isProcessStdout && ioctl(fd, TIOCGWINSZ, &size) == 0
        #endif
        var rows = measured && size.ws_row > 0 ? Int(size.ws_row) : 24
        if let text = io.environment["LINES"], let n = Int(text.trimmingASCIIWhitespace()), n > 0 { rows = n }
        let columns = io.columns
        var cell = CellSize.common
        if measured, size.ws_xpixel > 0, size.ws_ypixel > 0, size.ws_col > 0, size.ws_row > 0 {
            cell = CellSize(width: Int(size.ws_xpixel) / Int(size.ws_col), height: Int(size.ws_ypixel) / Int(size.ws_row))
        }
        return (rows, columns, cell)
    }
}
