import ShopYCore
import ShopYBase

/// The products `open` and `copy` act on: rows of the last listing, or productIds (`--id`) of a
/// like, of the last listing or of the offline catalog. Everything is found before anything runs.
enum LinkTargets {
    static let argument = ArgumentSpec("row", help: "A row number of the last listing (search, popular, rank or likes; e.g. 3, or 2.5 in popular), or a productId with --id.", variadic: true)
    static let id = LikeSupport.id.withHelp("Treat every argument as a productId: a like's first, else the last listing's or the catalog's.")

    static func resolve(_ targets: [LikeTarget], context: Context) throws -> [Product] {
        let store = LikeSupport.store(context)
        let ids = targets.compactMap { target -> String? in if case .id(let id) = target { return id } else { return nil } }
        let (resolved, liked): ([(LikeTarget, Product?)], [String: Product]) = try store.read { settings in
            var liked: [String: Product] = [:]
            let likes = settings.likes
            for id in ids { if let like = try? likes.like(id) { liked[id] = like.product } }
            // The likes too: the rows of a likes listing are its likes.
            return (try LikeSupport.resolve(targets, listing: settings.lastListing, likes: likes, context: context), liked)
        }
        var products: [Product] = []
        for (target, product) in resolved {
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
            let shown = product.link.map { "'\(visible($0))'" } ?? "none"
            throw UsageError("product \(Sanitizer.clean(product.productId)) has no http(s) link to open (its link: \(shown))")
        }
        return link
    }

    /// A refused link as it is, not as it would be cleaned: each whitespace, control or
    /// invisible format character written `\u{XXXX}`, so that the message shows why a link that
    /// reads as valid was refused.
    static func visible(_ link: String) -> String {
        var out = ""
        for scalar in link.unicodeScalars {
            if scalar.properties.isWhitespace || scalar.properties.generalCategory == .format || Sanitizer.needsCleaning(String(scalar)) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The one opener loop (`LinkOpener`), with this run's environment, launcher and diagnostics.
    static func opener(_ context: Context) -> LinkOpener {
        LinkOpener(environment: context.io.environment, launcher: context.io.launcher, trace: context.trace, diagnostics: context.diagnostics)
    }
}

/// `shopy open ROW…`
public struct OpenCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "open",
        abstract: "Open rows' links in the browser.",
        discussion: "Tries each $BROWSER entry (colon-separated commands, each split into words without a shell, with '…', \"…\" and \\ honoured; %s stands for the link, %% for a percent sign; without %s the link goes last), then the platform's opener: open on macOS, wslview on WSL, xdg-open where DISPLAY or WAYLAND_DISPLAY is set. Only http and https links are opened, each passed as one argument and never through a shell. With no opener the link is printed on stdout, and shopy says so.",
        arguments: [LinkTargets.argument],
        options: [LinkTargets.id.spec],
        examples: ["shopy search 방충망 && shopy open 1", "shopy open 1 3", "shopy open --id 80285861246", "BROWSER=w3m shopy open 2"])

    public var targets: [LikeTarget]

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        targets = try LikeSupport.targets(parsed, verb: "open", id: LinkTargets.id)
    }

    /// Each link, checked, and the opener that took it (nil: none did).
    public func execute(_ context: Context) async throws -> [(link: String, openedBy: String?)] {
        let links = try LinkTargets.resolve(targets, context: context).map { product throws(UsageError) in try LinkTargets.link(of: product) }
        let opener = LinkTargets.opener(context)
        return links.map { link in (link, opener.open(link)) }
    }

    public var presenter: OpenPresenter { OpenPresenter() }
}

/// `shopy copy ROW`
public struct CopyCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "copy",
        abstract: "Copy a row's link to the clipboard.",
        discussion: "Uses wl-copy (Wayland), xclip or xsel (X11) or pbcopy (macOS), the link on their stdin; without them, on a terminal, the OSC 52 escape asks the terminal to set its clipboard (tmux needs 'set -g set-clipboard on'). shopy says which was used. Without any, the link is printed on stdout and the exit status is 69.",
        arguments: [ArgumentSpec("row", help: "A row number of the last listing (search, popular, rank or likes), or a productId with --id.")],
        options: [LinkTargets.id.spec],
        examples: ["shopy search 방충망 && shopy copy 1", "shopy copy --id 80285861246"])

    public var target: LikeTarget

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        let targets = try LikeSupport.targets(parsed, verb: "copy", id: LinkTargets.id)
        guard targets.count == 1 else { throw UsageError("copy takes one row", hint: "to open several, use shopy open \(parsed.positionals.joined(separator: " "))") }
        target = targets[0]
    }

    /// The link, checked, and the clipboard tool that took it (nil: none did).
    public func execute(_ context: Context) async throws -> (link: String, copiedBy: String?) {
        guard let product = try LinkTargets.resolve([target], context: context).first else { throw CancellationError() }
        let link = try LinkTargets.link(of: product)
        return (link, LinkTargets.opener(context).copy(link))
    }

    public var presenter: CopyPresenter { CopyPresenter() }
}

/// No clipboard tool and no terminal (exit 69, see `ExitCode(for:)`).
public struct CopyError: ShopyError {
    public init() {}
    public var message: String { "no clipboard tool found (wl-copy, xclip, xsel, pbcopy) and no terminal for OSC 52; the link is printed above" }
    public var hint: String? { "install wl-clipboard or xclip, or run shopy copy in a terminal" }
}
