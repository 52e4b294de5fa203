import ShopYCore
import ShopYBase
/// The bytes that bring the terminal from one frame to the next: only the lines that changed,
/// each written whole from its first column (lines are full width, so nothing needs erasing),
/// styles as SGR changes, then the cursor: shown at the prompt, hidden otherwise.
public enum FrameWriter {
    public static func diff(from old: Frame?, to new: Frame, color: Bool = true) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        let full = old == nil || old!.rows != new.rows || old!.columns != new.columns
        if full { out += Array("\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8) }
        // A picture already placed in the same region keeps its cells: lines are written around it.
        let kept = !full && old?.picture?.region == new.picture?.region ? new.picture?.region : nil
        var wrote = false
        for row in 0..<new.rows where full || old!.lines[row] != new.lines[row] {
            let skip = kept.flatMap { $0.contains(row: row) ? $0.column..<($0.column + $0.columns) : nil }
            if let skip, skip.lowerBound == 0 && skip.upperBound >= new.columns { continue }
            // A shown cursor is hidden while lines are drawn, so it never flickers across them.
            if !wrote && !full && old!.cursor != nil { out += Array("\u{1B}[?25l".utf8) }
            line(new.lines[row], row: row, color: color, skipping: skip, into: &out)
            wrote = true
        }
        let cursorMoved = full || old!.cursor?.row != new.cursor?.row || old!.cursor?.column != new.cursor?.column
        if let cursor = new.cursor {
            if wrote || cursorMoved { out += Array("\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H\u{1B}[?25h".utf8) }
        } else if full || old?.cursor != nil {
            out += Array("\u{1B}[?25l".utf8)
        }
        return out
    }

    static func line(_ cells: [Cell], row: Int, color: Bool, skipping skip: Range<Int>? = nil, into out: inout [UInt8]) {
        out += Array("\u{1B}[\(row + 1);1H".utf8)
        var style = CellStyle.plain
        for (c, cell) in cells.enumerated() {
            if let skip, skip.contains(c) {
                // The picture's cells: jump past them (the line goes on after the region, if at all).
                if c == skip.lowerBound {
                    if style != .plain { out += Array("\u{1B}[0m".utf8) }
                    style = .plain
                    if skip.upperBound < cells.count { out += Array("\u{1B}[\(row + 1);\(skip.upperBound + 1)H".utf8) }
                }
                continue
            }
            if cell.isContinuation { continue }
            if cell.style != style {
                out += Array(cell.style.sgr(color: color).utf8)
                style = cell.style
            }
            // A wide character without its right half (never made by Frame.put) is a space.
            if !cell.character.isASCII && DisplayWidth.of(cell.character) == 2 && !(c + 1 < cells.count && cells[c + 1].isContinuation) {
                out.append(0x20)
            } else {
                out += Array(cell.character.utf8)
            }
        }
        if style != .plain { out += Array("\u{1B}[0m".utf8) }
    }
}
