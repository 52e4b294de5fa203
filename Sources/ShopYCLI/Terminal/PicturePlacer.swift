import Foundation
import ShopYCore

/// The driver's side of Detail's picture: a frame names a picture and its region; this renders
/// it through libchafa off the driver's thread (the loop never waits for it: it is woken when the
/// bytes are ready), places them over the region, and takes a kitty image away when the frame no
/// longer has it (text written over a region clears the other kinds).
final class PicturePlacer: @unchecked Sendable {
    struct Key: Equatable {
        var picture: DecodedPicture
        var region: PictureRegion
    }

    let choice: GraphicsChoice
    let environment: [String: String]
    let cell: CellSize
    private let wake: @Sendable () -> Void
    private let queue = DispatchQueue(label: "shopy.browse.picture")
    private let lock = NSLock()
    private var rendered: (key: Key, picture: RenderedPicture?)?
    private var rendering: Key?
    private var placed: Key?

    init(choice: GraphicsChoice, environment: [String: String], cell: CellSize, wake: @escaping @Sendable () -> Void) {
        self.choice = choice
        self.environment = environment
        self.cell = cell
        self.wake = wake
    }

    /// The bytes to write after `frame`'s text: its picture when ready and not on the screen yet
    /// (or when `redraw`: the text under its region was rewritten, or the screen cleared).
    func bytes(after frame: Frame, redraw: Bool) -> [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        guard let wanted = frame.picture.map({ Key(picture: $0.picture, region: $0.region) }) else {
            // No picture wanted: a render not started yet is skipped, and the last one is let go
            // (with the decoded picture it holds).
            rendering = nil
            rendered = nil
            guard placed != nil else { return [] }
            placed = nil
            return removal
        }
        if placed == wanted && !redraw { return [] }
        if let rendered, rendered.key == wanted {
            var out = placed != nil ? removal : []
            out += clear(wanted.region)
            placed = wanted
            if let picture = rendered.picture { out += placement(picture, in: wanted.region) }
            return out
        }
        if rendering != wanted {
            rendering = wanted
            let choice = self.choice, environment = self.environment, cell = self.cell, wake = self.wake
            queue.async { [weak self] in
                // Not started when another picture, or none, is wanted by now.
                guard let self, self.lock.withLock({ self.rendering == wanted }) else { return }
                // Symbols take the region less one column of gap; pixel images the whole of it.
                let columns = max(1, wanted.region.columns - 1)
                let picture = try? ChafaTerminal.render(wanted.picture, choice: choice, columns: columns, rows: wanted.region.rows,
                                                        cell: cell, environment: environment).get()
                self.lock.withLock {
                    self.rendered = (wanted, picture)
                    if self.rendering == wanted { self.rendering = nil }
                }
                wake()
            }
        }
        return []
    }

    /// What leaving the screen writes: a kitty picture deleted (the others are text cells the
    /// next frame overwrites, or gone with the alternate screen).
    func leave() -> [UInt8] {
        lock.withLock {
            guard placed != nil else { return [] }
            placed = nil
            return removal
        }
    }

    private var removal: [UInt8] {
        guard choice.drawing == .kitty else { return [] }
        let delete = Array("\u{1B}_Ga=d,d=A,q=2\u{1B}\\".utf8)
        return choice.tmuxPassthrough ? TerminalGraphics.tmuxWrapped(delete) : delete
    }

    /// Blanks the region (ECH on each row), so nothing of an earlier picture or note remains.
    private func clear(_ region: PictureRegion) -> [UInt8] {
        var out: [UInt8] = Array("\u{1B}[0m".utf8)
        for row in region.row..<(region.row + region.rows) {
            out += Array("\u{1B}[\(row + 1);\(region.column + 1)H\u{1B}[\(region.columns)X".utf8)
        }
        return out
    }

    private func placement(_ picture: RenderedPicture, in region: PictureRegion) -> [UInt8] {
        let left = region.column + 2  // one column of gap, 1-based
        var out: [UInt8] = []
        if picture.drawing == .symbols {
            for (i, row) in picture.symbolRows.enumerated() where i < region.rows {
                out += Array("\u{1B}[\(region.row + i + 1);\(left)H".utf8) + row + Array("\u{1B}[0m".utf8)
            }
        } else {
            out += Array("\u{1B}[\(region.row + 1);\(left)H".utf8) + picture.bytes + Array("\u{1B}[0m".utf8)
        }
        return out
    }
}
