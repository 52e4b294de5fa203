import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase

/// `shopy browse [QUERY…]`: the ShopY app, full screen.
public struct BrowseCommand: Command {
    public static let spec = CommandSpec(
        name: "browse",
        abstract: "The ShopY app in the terminal: popular rankings, search, details, likes, history.",
        discussion: "Opens Search with QUERY, else Home. Keys: 1–4 or Tab switch Home, Search, Likes, History; / types a query; j/k, PgDn/PgUp, g/G move (moving past the last row loads the next page, to rank 1,099); Enter shows the item; l likes or unlikes; o opens, c copies the link; s changes the sort; r reloads; d removes a history entry; Esc or q goes back, q on a screen quits; Ctrl-C quits; Ctrl-Z suspends (fg resumes); ? lists the keys. Needs a terminal on stdin and stdout (at least 40×10) that can address the cursor (not TERM=dumb).",
        arguments: [ArgumentSpec("query", help: "Words to search for at once.", variadic: true, optional: true)],
        options: [sortOption.spec, sizeOption.spec, SharedOptions.source.spec, timeoutOption.spec, PictureSetup.images.spec],
        examples: ["shopy browse", "shopy browse 방충망", "shopy browse 고양이 --sort asc --source catalog"])

    /// Search's own declarations: the same values, the same checks; only the help of --sort differs.
    static let sortOption = SearchCommand.sort.withHelp("The first sort of Search: sim (default), date, asc or dsc; s changes it.")
    static let sizeOption = SearchCommand.size
    static let timeoutOption = SharedOptions.timeout.withHelp("Give up each load (a page, Home's sections, a reload) after this many seconds, retries included (default 10).")

    public var query: String?
    public var sort: ShopYBase.SortOrder
    public var size: Int
    public var source: SourceSelection?
    public var timeout: Double
    public var images: ImagesMode

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        let joined = parsed.positionals.joined(separator: " ").trimmingASCIIWhitespace()
        query = joined.split(whereSeparator: { $0.isWhitespace }).isEmpty ? nil : joined
        if let query { try QueryLimit.check(query, what: "the query") }
        sort = try Self.sortOption.read(parsed)
        size = try Self.sizeOption.read(parsed)
        source = try SharedOptions.source.read(parsed)
        timeout = try Self.timeoutOption.read(parsed)
        images = try PictureSetup.images.read(parsed)
    }

    /// Why TERM rules out a full-screen program (it is unset, empty or `dumb`: Emacs's shell
    /// and the like, which do not move the cursor), or nil.
    static func incapableTerminal(_ term: String?) -> String? {
        guard let term else { return "TERM is not set" }
        if term.trimmingASCIIWhitespace().isEmpty { return "TERM is empty" }
        if term.trimmingASCIIWhitespace().lowercased() == "dumb" { return "TERM is dumb" }
        return nil
    }

    public func run(_ context: Context) async throws -> ExitCode {
        guard context.io.isProcessStdout, let modes = TerminalModes(input: 0, output: 1) else {
            throw UsageError("browse needs a terminal", hint: "run it in a terminal, not with its input or output redirected")
        }
        if let problem = Self.incapableTerminal(context.io.environment["TERM"]) {
            throw UsageError("browse needs a terminal that can address the cursor (\(problem))",
                             hint: "set TERM to the terminal's type (for example xterm-256color), or use search and the other commands")
        }
        // Notices and warnings would land on the screen: they are dropped; errors show in the status line.
        var io = context.io
        io.stderr = OutputSink()
        var quiet = Context(io: io, transport: context.transport, store: context.store, network: context.network, catalog: context.catalog)
        quiet.diagnosticsSink = DiscardedDiagnostics()
        let terminal = BrowseTerminal(modes: modes, color: context.io.colorEnabled(terminal: true))
        let services = try LiveBrowseServices(context: quiet, source: source, timeout: timeout, terminalWrite: { [terminal] in terminal.writeRaw($0) })
        services.withTerminalReleased = { [terminal] body in terminal.released(body) }
        var initial = BrowseState(source: services.sourceKind, tab: query == nil ? .home : .search, query: query, sort: sort, size: size)
        initial.graphics = PictureSetup.choice(images, context: context, terminal: true)
        if case .success(let choice) = initial.graphics {
            terminal.drawPictures(choice, environment: context.io.environment, cell: PictureSetup.window(context.io).cell)
        }
        let start = initial
        let status: Int32 = await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: terminal.run(initial: start, services: services)) }
            thread.name = "shopy.browse"
            thread.start()
        }
        if status == BrowseTerminal.lostStatus, let lost = terminal.lostTerminal { throw lost }
        guard status == 0 else {
            // Stopped by SIGINT, SIGTERM or SIGHUP: the terminal is restored; the status says
            // which signal, as the shell's 128 + n (ExitCode holds only shopy's own codes).
            context.io.stdout.flush()
            exit(status)
        }
        return .ok
    }
}
