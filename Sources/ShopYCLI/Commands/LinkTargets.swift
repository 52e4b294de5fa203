#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYCore

/// The products `open` and `copy` act on: rows of the last listing, or productIds (`--id`) of a
/// like, of the last listing or of the offline catalog. Everything is found before anything runs.
enum LinkTargets {
    static let argument = ArgumentSpec("row", help: "A row number of the last search, popular or rank listing (e.g. 3, or 2.5 in popular), or a productId with --id.", variadic: true)
    static let idOption = OptionSpec("id", help: "Treat every argument as a productId: a like's first, else the last listing's or the catalog's.")

    static func resolve(_ targets: [LikeTarget], context: Context) throws -> [Product] {
        let store = LikeSupport.store(context)
        let ids = targets.compactMap { target -> String? in if case .id(let id) = target { return id } else { return nil } }
        let (listing, liked): (LastListing?, [String: Product]) = try store.read { settings in
            var liked: [String: Product] = [:]
            if !ids.isEmpty {
                let likes = settings.likes
                for id in ids { if let like = try? likes.like(id) { liked[id] = like.product } }
            }
            return (settings.lastListing, liked)
        }
        var products: [Product] = []
        for (target, product) in try LikeSupport.resolve(targets, listing: listing, environment: context.io.environment) {
            if case .id(let id) = target, let like = liked[id] {
                products.append(like)
            } else if let product {
                products.append(product)
            } else {
                throw UsageError("product \(Sanitizer.clean(target.text)) is not liked, nor in the last listing or the offline catalog")
            }
        }
        return products
    }

    /// The product's link, checked; a product without a safe link is an error before anything runs.
    static func link(of product: Product) throws(UsageError) -> String {
        guard let link = SafeLink.check(product.link) else {
            let shown = product.link.map { "'\(Sanitizer.clean($0))'" } ?? "none"
            throw UsageError("product \(Sanitizer.clean(product.productId)) has no http(s) link to open (its link: \(shown))")
        }
        return link
    }
}

/// `shopy open ROW…`
public struct OpenCommand: Command {
    public static let spec = CommandSpec(
        name: "open",
        abstract: "Open rows' links in the browser.",
        discussion: "Tries each $BROWSER entry (colon-separated; %s stands for the link), then the platform's opener: open on macOS, wslview on WSL, xdg-open where DISPLAY or WAYLAND_DISPLAY is set. Only http and https links are opened, each passed as one argument and never through a shell. With no opener the link is printed on stdout, and shopy says so.",
        arguments: [LinkTargets.argument],
        options: [LinkTargets.idOption],
        examples: ["shopy search 방충망 && shopy open 1", "shopy open 1 3", "shopy open --id 80285861246", "BROWSER=w3m shopy open 2"])

    public var targets: [LikeTarget]

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        targets = try LikeSupport.targets(parsed, verb: "open")
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let io = context.io
        let links = try LinkTargets.resolve(targets, context: context).map { product throws(UsageError) in try LinkTargets.link(of: product) }
        for link in links {
            var opened = false
            for handler in Openers.candidates(for: link, environment: io.environment, launcher: io.launcher) {
                context.trace("open: \(handler.argv.joined(separator: " "))")
                switch io.launcher.run(handler.argv, input: nil, attached: handler.attached, wait: 5) {
                case .exited(0), .stillRunning:
                    io.notice("shopy: opened with \(handler.name): \(link)")
                    opened = true
                case .exited(let status):
                    io.stderr.line("shopy: warning: \(handler.name) failed (exit status \(status)); trying the next opener")
                case .failedToStart(let code):
                    io.stderr.line("shopy: warning: \(handler.name) could not be started (\(String(cString: strerror(code))))")
                }
                if opened { break }
            }
            if !opened {
                io.stdout.line(link)
                io.notice("shopy: no browser opener found ($BROWSER, xdg-open, open, wslview); the link is printed above")
            }
        }
        return .ok
    }
}

/// `shopy copy ROW`
public struct CopyCommand: Command {
    public static let spec = CommandSpec(
        name: "copy",
        abstract: "Copy a row's link to the clipboard.",
        discussion: "Uses wl-copy (Wayland), xclip or xsel (X11) or pbcopy (macOS), the link on their stdin; without them, on a terminal, the OSC 52 escape asks the terminal to set its clipboard (tmux needs 'set -g set-clipboard on'). shopy says which was used. Without any, the link is printed on stdout and the exit status is 69.",
        arguments: [ArgumentSpec("row", help: "A row number of the last search, popular or rank listing, or a productId with --id.")],
        options: [LinkTargets.idOption],
        examples: ["shopy search 방충망 && shopy copy 1", "shopy copy --id 80285861246"])

    public var target: LikeTarget

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        let targets = try LikeSupport.targets(parsed, verb: "copy")
        guard targets.count == 1 else { throw UsageError("copy takes one row", hint: "to open several, use shopy open \(parsed.positionals.joined(separator: " "))") }
        target = targets[0]
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let io = context.io
        guard let product = try LinkTargets.resolve([target], context: context).first else { return .failure }
        let link = try LinkTargets.link(of: product)
        for handler in Clipboards.candidates(for: link, environment: io.environment, launcher: io.launcher) {
            context.trace("copy: \(handler.argv.joined(separator: " ")) < link")
            switch io.launcher.run(handler.argv, input: handler.input, attached: false, wait: 5) {
            case .exited(0), .stillRunning:
                io.notice("shopy: copied with \(handler.name): \(link)")
                return .ok
            case .exited(let status):
                io.stderr.line("shopy: warning: \(handler.name) failed (exit status \(status)); trying the next way")
            case .failedToStart(let code):
                io.stderr.line("shopy: warning: \(handler.name) could not be started (\(String(cString: strerror(code))))")
            }
        }
        if io.stderrIsTerminal || io.stdoutIsTerminal {
            let sink = io.stderrIsTerminal ? io.stderr : io.stdout
            sink.write(Clipboards.osc52(link))
            sink.flush()
            io.notice("shopy: sent to the terminal's clipboard with OSC 52 (if the terminal allows it): \(link)")
            return .ok
        }
        io.stdout.line(link)
        return ShopY.report(CopyError(), io: io)
    }
}

/// No clipboard tool and no terminal (exit 69, see `ExitCode(for:)`).
public struct CopyError: ShopyError {
    public init() {}
    public var message: String { "no clipboard tool found (wl-copy, xclip, xsel, pbcopy) and no terminal for OSC 52; the link is printed above" }
    public var hint: String? { "install wl-clipboard or xclip, or run shopy copy in a terminal" }
}
