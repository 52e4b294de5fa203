import ShopYCore
import ShopYBase
/// The view: `render(state, rows, columns) -> Frame`, pure. Every text from the network goes
/// through `Sanitizer.clean` here, and everything is laid out by display width.
public enum BrowseRender {
    static let selected = CellStyle(reverse: true)
    static let dim = CellStyle(dim: true)
    static let bold = CellStyle(bold: true)
    static let error = CellStyle(color: CellStyle.red)

    public static func render(_ s: BrowseState, rows: Int, columns: Int) -> Frame {
        var frame = Frame(rows: rows, columns: columns)
        if BrowseLayout.tooSmall(rows: rows, columns: columns) {
            let lines = wrap("terminal too small: \(columns)×\(rows); browse needs at least \(BrowseLayout.minColumns)×\(BrowseLayout.minRows)", width: max(1, columns))
            for (i, line) in lines.prefix(rows).enumerated() { frame.put(line, row: i, column: 0) }
            return frame
        }
        var s = s
        s.rows = rows
        s.columns = columns
        tabBar(s, &frame)
        if case .offline(let reason) = s.network {
            let note = s.source == .catalog ? " · the offline catalog needs no network" : " · nothing is sent until it returns"
            frame.put(" offline — " + Sanitizer.clean(reason) + note, row: 1, column: 0)
            frame.paint(row: 1, style: CellStyle(bold: true, reverse: true, color: CellStyle.red))
        }
        let top = BrowseLayout.listTop(s)
        let height = BrowseLayout.listRows(s)
        let status: String
        if let detail = s.detail {
            status = BrowseDetailRender.draw(detail, s, &frame, titleRow: top - 1, top: top, height: height)
        } else {
            switch s.tab {
            case .home: status = BrowseListRender.home(s, &frame, titleRow: top - 1, top: top, height: height)
            case .search: status = BrowseListRender.search(s, &frame, titleRow: top - 1, top: top, height: height)
            case .likes: status = BrowseListRender.likes(s, &frame, titleRow: top - 1, top: top, height: height)
            case .history: status = BrowseListRender.history(s, &frame, titleRow: top - 1, top: top, height: height)
            }
        }
        statusLine(s, status, &frame)
        if s.showHelp {
            BrowseHelp.draw(&frame)
            // The overlay's cells are text: the picture steps aside until it closes.
            frame.picture = nil
        }
        return frame
    }

    static func tabBar(_ s: BrowseState, _ frame: inout Frame) {
        var col = frame.put("ShopY ", row: 0, column: 0, style: bold)
        for tab in BrowseTab.allCases {
            let active = tab == s.tab && s.detail == nil
            let label = " \(tab.rawValue) \(tab.title) "
            col = frame.put(label, row: 0, column: col, style: active ? CellStyle(bold: true, reverse: true) : .plain)
        }
        if s.detail != nil { col = frame.put(" Detail ", row: 0, column: col, style: CellStyle(bold: true, reverse: true)) }
        let hint = "? keys"
        let hintColumn = frame.columns - DisplayWidth.of(hint)
        if hintColumn > col + 1 { frame.put(hint, row: 0, column: hintColumn, style: dim) }
    }

    static func statusLine(_ s: BrowseState, _ status: String, _ frame: inout Frame) {
        let row = frame.rows - 1
        if let message = s.message {
            frame.put(Sanitizer.clean(message.text), row: row, column: 0, style: message.isError ? error : .plain)
        } else {
            frame.put(status, row: row, column: 0, style: dim)
        }
    }

    /// Lines of at most `width` columns, broken at spaces when a word fits, else anywhere
    /// between whole characters.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var used = 0
        var lastSpace: String.Index?
        for character in text {
            let w = DisplayWidth.of(character)
            if used + w > width {
                if character == " " {
                    lines.append(line)
                    line = ""
                    used = 0
                    lastSpace = nil
                    continue
                }
                if let space = lastSpace {
                    lines.append(String(line[..<space]))
                    line = String(line[line.index(after: space)...])
                    used = DisplayWidth.of(line)
                } else {
                    lines.append(line)
                    line = ""
                    used = 0
                }
                lastSpace = nil
            }
            if character == " " { lastSpace = line.endIndex }
            line.append(character)
            used += w
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `12,300원`, or `–` when unknown.
    static func price(_ value: Int?) -> String { Money.won(value) }
}
