import Foundation
import ShopYCore
import ShopYBase

/// `shopy show ROW|ID`: one product's detail card, the facts of browse's Detail screen, with its
/// picture beside or above it on a terminal.
public struct ShowCommand: ResultCommand {
    public enum Format: String, CaseIterable, Sendable { case text, json }

    static let formats = FormatOptions(accepting: Format.allCases, notes: [.text: "default: the card, with the picture on a terminal"])
    static let timeout = SharedOptions.timeout.withHelp("Give up fetching the picture after this many seconds (default 10); the card shows its link then.")

    public static let spec = CommandSpec(
        name: "show",
        abstract: "Show one product's detail card, with its picture on a terminal.",
        discussion: "The card has the facts of browse's Detail screen: the title, price, mall, brand, maker, categories, type, productId, link, whether it is liked and, once 'likes refresh' tracks it, the price now, the change since liked, the lowest and a sparkline of its prices. On a terminal the picture is drawn beside the card (above it on a narrow one, or with kitty, iTerm2 or sixel images) through libchafa; it is fetched once, then drawn from the cache ($XDG_CACHE_HOME/shopy/images) with no network. Without libchafa or a decoder the card shows the link and one hint names the package to install; --verbose says why any picture is missing.",
        arguments: [ArgumentSpec("row-or-id", help: "A row number of the last listing (search, popular, rank, likes), or a productId.")],
        options: [LinkTargets.id.spec] + formats.specs + [PictureSetup.images.spec, timeout.spec],
        examples: ["shopy search 방충망 && shopy show 1", "shopy show --id 80285861246", "shopy show 2 --images symbols", "shopy show 3 --json"])

    public var target: LikeTarget
    public var format: Format
    public var images: ImagesMode
    public var timeout: Double

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        let targets = try LikeSupport.targets(parsed, verb: "show", id: LinkTargets.id)
        guard targets.count == 1 else { throw UsageError("show takes one row or productId", hint: "shopy show \(Echo.value(parsed.positionals[0]))") }
        target = targets[0]
        format = try Self.formats.read(parsed) ?? .text
        images = try PictureSetup.images.read(parsed)
        timeout = try Self.timeout.read(parsed)
    }

    /// What `show` prints: the card, and the picture or why there is none.
    public struct Shown: Sendable {
        var card: ProductCard
        var like: Like?
        var picture: RenderedPicture?
        var pictureFailure: PictureFailure?
        /// The columns the card may take beside the picture (or the window's).
        var width: Int
    }

    public func execute(_ context: Context) async throws -> Shown {
        guard let product = try LinkTargets.resolve([target], context: context).first else { throw CancellationError() }
        let rank: Int? = {
            if case .row(let row) = target { return Int(row) }
            return nil
        }()
        let (like, record): (Like?, PriceRecord?) = try context.store.read { settings in
            let like = try? settings.likes.like(product.productId)
            let record = like == nil ? nil : (try? settings.prices)?[product.productId]
            return (like ?? nil, record)
        }
        // The product as resolved: a like's snapshot for its id, else the listing's or the catalog's.
        let card = ProductCard(product: product, rank: rank, liked: like.map { .since($0.likedAt) } ?? .no,
                               tracked: record.map { ProductCard.Tracked(record: $0, likedPrice: like?.likedPrice) })
        let window = PictureSetup.window(context.io)
        var shown = Shown(card: card, like: like, width: window.columns)
        guard format == .text else { return shown }
        switch PictureSetup.choice(images, context: context, terminal: context.io.stdoutIsTerminal) {
        case .failure(let failure):
            shown.pictureFailure = failure
        case .success(let choice):
            context.trace("picture: \(choice.why)")
            let layout = ShowLayout(choice: choice, window: window)
            let service = PictureSetup.service(context, trace: context.trace)
            let want = (layout.box.columns * max(8, window.cell.width), layout.box.rows * max(16, window.cell.height))
            let deadline = context.io.clock.deadline(after: timeout)
            switch await service.picture(product.image, deadline: deadline, want: want) {
            case .failure(let failure):
                shown.pictureFailure = failure
            case .success(let picture):
                switch ChafaTerminal.render(picture, choice: choice, columns: layout.box.columns, rows: layout.box.rows,
                                            cell: window.cell, environment: context.io.environment) {
                case .success(let rendered):
                    shown.picture = rendered
                    shown.width = layout.beside ? max(20, window.columns - rendered.columns - ShowLayout.gap) : window.columns
                case .failure(let failure):
                    shown.pictureFailure = failure
                }
            }
        }
        return shown
    }

    public var presenter: ShowPresenter { ShowPresenter(format: format) }
}

/// Where `show` puts the picture: beside the card when symbols leave the card 44 columns or
/// more, else above it (pixel protocols always above: the cursor after an image is not
/// reliably where the next line starts on every terminal).
struct ShowLayout {
    static let gap = 2
    var beside: Bool
    var box: (columns: Int, rows: Int)

    init(choice: GraphicsChoice, window: (rows: Int, columns: Int, cell: CellSize)) {
        let pictureColumns = min(40, window.columns * 2 / 5)
        beside = choice.drawing == .symbols && window.columns - pictureColumns - Self.gap >= 44
        let rows = max(4, min(20, window.rows - 4))
        box = beside ? (pictureColumns, rows) : (min(window.columns, 60), max(4, min(20, window.rows / 2)))
    }
}
