import ShopYCore
/// The picture on browse's Detail screen, in MVI terms: its state (set by an effect that fetches
/// and decodes off the main loop), the reducer's steps, the region it takes by the window's
/// shape, and what the frame says about it. The driver places the picture's bytes
/// (`PicturePlacer`); the render stays pure.
public enum DetailPicture: Equatable, Sendable {
    /// No picture to show (pictures off, no terminal graphics): nothing is drawn.
    case none
    case loading
    case ready(DecodedPicture)
    case failed(PictureFailure)
}

/// The cells a picture takes: `rows` × `columns` from (`row`, `column`).
public struct PictureRegion: Equatable, Sendable {
    public var row: Int
    public var column: Int
    public var rows: Int
    public var columns: Int

    public func contains(row r: Int) -> Bool { r >= row && r < row + rows }
}

/// What a frame asks the driver to place: this picture in this region (its cells are left to it).
public struct FramePicture: Equatable, Sendable {
    public var region: PictureRegion
    public var picture: DecodedPicture
}

extension BrowseReducer {
    /// Detail just opened: its picture is asked for when pictures can be drawn here.
    static func startPicture(_ s: inout BrowseState, _ fx: inout [BrowseEffect]) {
        guard var detail = s.detail else { return }
        switch s.graphics {
        case .failure(let failure):
            if case .off = failure { detail.picture = .none } else { detail.picture = .failed(failure) }
        case .success:
            if let image = detail.product.image, !image.trimmingASCIIWhitespace().isEmpty {
                detail.picture = .loading
                fx.append(.loadPicture(productId: detail.product.productId, url: image))
            } else {
                detail.picture = .failed(.noImage("the product has no image URL"))
            }
        }
        s.detail = detail
    }

    /// Whether the picture being loaded is no longer wanted: Detail was left, or shows another
    /// product or link now (the reducer then asks for `.dropPicture`).
    static func abandonsPicture(from before: BrowseState, to after: BrowseState) -> Bool {
        guard let was = before.detail, was.picture == .loading else { return false }
        guard let now = after.detail else { return true }
        return now.product.productId != was.product.productId || now.product.image != was.product.image
    }

    /// A picture arrived: kept only when Detail still shows that product and link.
    static func pictureLoaded(productId: String, url: String, _ result: Result<DecodedPicture, PictureFailure>, _ s: inout BrowseState) {
        guard var detail = s.detail, detail.product.productId == productId, detail.product.image == url, detail.picture == .loading else { return }
        switch result {
        case .success(let picture): detail.picture = .ready(picture)
        case .failure(let failure): detail.picture = .failed(failure)
        }
        s.detail = detail
    }
}

/// Where Detail's picture goes: the right part of a wide window (at least 2.5 columns a row and
/// 90 columns), else the top part; nil when there is no room (the text keeps the whole screen).
enum BrowsePictureLayout {
    static func region(top: Int, height: Int, columns: Int, rows: Int) -> (region: PictureRegion, right: Bool)? {
        if columns >= 90 && Double(columns) >= 2.5 * Double(rows) || columns >= 120 {
            let width = min(60, columns * 2 / 5)
            return (PictureRegion(row: top, column: columns - width, rows: height, columns: width), true)
        }
        let pictureRows = min(16, height / 2)
        guard pictureRows >= 4 else { return nil }
        return (PictureRegion(row: top, column: 0, rows: pictureRows, columns: columns), false)
    }

    /// Draws the region's content (or leaves it to the picture) and returns where the card's
    /// text goes: its first row, its height and its width.
    static func draw(_ detail: DetailState, _ frame: inout Frame, top: Int, height: Int) -> (top: Int, height: Int, width: Int) {
        let whole = (top, height, frame.columns - 1)
        guard detail.picture != .none, let (region, right) = region(top: top, height: height, columns: frame.columns, rows: frame.rows) else { return whole }
        switch detail.picture {
        case .none:
            return whole
        case .loading:
            frame.put("loading…", row: region.row, column: region.column + (right ? 1 : 0), style: BrowseRender.dim)
        case .ready(let picture):
            frame.picture = FramePicture(region: region, picture: picture)
        case .failed(let failure):
            var lines = BrowseRender.wrap("no picture: " + failure.reason, width: max(1, region.columns - 2)).prefix(region.rows - 1).map { $0 }
            if let hint = failure.hint { lines += BrowseRender.wrap("hint: " + hint, width: max(1, region.columns - 2)) }
            for (i, line) in lines.prefix(region.rows).enumerated() {
                frame.put(line, row: region.row + i, column: region.column + (right ? 1 : 0), style: BrowseRender.dim)
            }
            if !right {
                // A short note needs no picture-sized gap above the card.
                let used = min(region.rows, lines.count) + 1
                return (top + used, height - used, frame.columns - 1)
            }
        }
        if right { return (top, height, region.column - 2) }
        return (top + region.rows + 1, max(1, height - region.rows - 1), frame.columns - 1)
    }
}
