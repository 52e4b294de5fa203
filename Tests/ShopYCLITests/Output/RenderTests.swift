// Tests for Sources/ShopYCLI/Output/Renderers.swift: TSV, CSV, JSONL, the width-aware table and
// the JSON schema of an item.

import Foundation
import XCTest
@testable import ShopYCore
@testable import ShopYCLI
@testable import ShopYBase

/// Removes ANSI CSI sequences (`ESC [ … final byte`).
func stripANSI(_ text: String) -> String {
    var out = ""
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
        if scalar == "\u{1B}" {
            guard let next = scalars.next() else { break }
            if next == "[" {
                while let c = scalars.next(), !(0x40...0x7E).contains(c.value) {}
            }
            continue
        }
        out.unicodeScalars.append(scalar)
    }
    return out
}

final class RenderTests: XCTestCase {

    private func item(_ rank: Int, _ id: String = "81813683218", title: String = "남성 오버핏 기모 후드티", price: Int? = 19800,
                      highPrice: Int? = nil, mall: String? = "서번트", brand: String? = nil, maker: String? = nil,
                      categories: [String] = ["패션의류", "남성의류"], productType: Int? = 2,
                      link: String? = "https://search.shopping.naver.com/gate.nhn?id=81813683218",
                      image: String? = "https://shopping-phinf.pstatic.net/a.jpg", liked: Bool? = nil) -> ListedItem {
        ListedItem(rank: rank, product: Product(productId: id, title: title, price: price, highPrice: highPrice, mall: mall, brand: brand,
                                                maker: maker, categories: categories, productType: productType, link: link, image: image),
                   liked: liked)
    }

    /// Titles that try to break rows and terminals.
    private var hostile: [ListedItem] {
        [
            item(1, title: "탭\t있는\t제목", mall: "몰\t이름"),
            item(2, title: "줄바꿈\n있는\r\n제목", mall: "줄\n바꿈몰", link: "https://x.example/\ta"),
            item(3, title: "\u{1B}[31m빨강\u{1B}[0m \u{9B}2J 지우기", mall: "\u{1B}]0;title\u{7}"),
            item(4, title: "NEL\u{85}VT\u{B}FF\u{C}끝 \u{202E}역방향", price: nil, mall: nil, link: nil),
            item(5, "123\t45", title: "", price: 0),
        ]
    }

    private var koreanItems: [ListedItem] {
        [
            item(1, title: "방충망 미세먼지 롤 창문 모기장 DIY 100cmx10cm", price: 450, mall: "동백물산"),
            item(2, "80285861246", title: "일체형 자석 방충망 현관 베란다 창문 안방 모기장 베이직 90X210", price: 9900, mall: "다샵"),
            item(3, "11", title: "고농축 알칼리세탁세제 3L 4개 빨래 찌든때 수건 쉰내 냄새제거 실내건조 일반드럼용 😀👍🏽🇰🇷", price: 1_234_000,
                 mall: "아주아주아주아주긴쇼핑몰이름입니다"),
            item(10, title: "P&G 다우니 울트라 섬유유연제 에이프릴 프레쉬, 5.03L, 1개", price: nil, mall: "네이버"),
            item(11, title: "e\u{301}\u{301} 조합 문자와 ＦＵＬＬＷＩＤＴＨ 전각", price: 5, mall: nil),
            item(100, title: "짧음", price: 99_999_999, mall: "몰"),
        ]
    }

    // MARK: - TSV

    func testTSVColumns() {
        let text = Render.tsv([item(21), item(22, "123", title: "두 번째", price: nil, mall: nil, link: nil)])
        XCTAssertEqual(text, "21\t81813683218\t19800\t서번트\t남성 오버핏 기모 후드티\thttps://search.shopping.naver.com/gate.nhn?id=81813683218\n"
                           + "22\t123\t\t\t두 번째\t\n")
        XCTAssertEqual(Render.tsv([]), "")
    }

    func testTSVSanitizesCells() {
        let text = Render.tsv(hostile)
        XCTAssertTrue(text.hasSuffix("\n"))
        let rows = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(rows.count, hostile.count, "one line a row: \(text.debugDescription)")
        XCTAssertEqual(text.filter { $0 == "\n" || $0 == "\r\n" }.count, hostile.count)
        for (row, listed) in zip(rows, hostile) {
            XCTAssertEqual(row.filter { $0 == "\t" }.count, 5, "exactly 5 tabs: \(row.debugDescription)")
            XCTAssertFalse(row.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" }, row.debugDescription)
            XCTAssertFalse(row.unicodeScalars.contains { $0.value == 0x7F || (0x80...0x9F).contains($0.value) }, row.debugDescription)
            XCTAssertFalse(row.unicodeScalars.contains { $0 == "\u{202E}" }, row.debugDescription)
            XCTAssertTrue(row.hasPrefix("\(listed.rank)\t"))
        }
        let first = rows[0].split(separator: "\t", omittingEmptySubsequences: false)
        XCTAssertEqual(first[3], "몰 이름")
        XCTAssertEqual(first[4], "탭 있는 제목")
        XCTAssertEqual(rows[4].split(separator: "\t", omittingEmptySubsequences: false)[1], "123 45")
    }

    func testTSVColumnsNeverChangeWithLiked() {
        // Scripts cut TSV by position: a listing that knows likes still has the same 6 columns.
        let text = Render.tsv([item(1, liked: true), item(2, liked: false)])
        XCTAssertEqual(text, Render.tsv([item(1), item(2)]))
        for row in text.split(separator: "\n") { XCTAssertEqual(row.filter { $0 == "\t" }.count, 5) }
    }

    // MARK: - CSV

    func testCSVHeaderAndLineEnds() {
        let text = Render.csv([item(1), item(2, price: nil, highPrice: nil)])
        let records = text.components(separatedBy: "\r\n")
        XCTAssertEqual(records.last, "", "every record ends with CRLF")
        XCTAssertEqual(records.count, 4)
        XCTAssertEqual(records[0], "rank,productId,title,price,highPrice,mall,brand,maker,categories,productType,link,image")
        XCTAssertEqual(records[1], "1,81813683218,남성 오버핏 기모 후드티,19800,,서번트,,,패션의류 > 남성의류,2,https://search.shopping.naver.com/gate.nhn?id=81813683218,https://shopping-phinf.pstatic.net/a.jpg")
        XCTAssertEqual(records[2].split(separator: ",", omittingEmptySubsequences: false)[3], "")
        XCTAssertFalse(text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "no bare LF")
        XCTAssertFalse(text.replacingOccurrences(of: "\r\n", with: "").contains("\r"), "no bare CR")
        XCTAssertEqual(Render.csv([]), Render.csvHeader.joined(separator: ",") + "\r\n")
        XCTAssertEqual(Render.csv([item(1)], header: false).components(separatedBy: "\r\n").count, 2)
    }

    func testCSVQuoting() {
        let text = Render.csv([item(1, title: "P&G 다우니, 5.03L, 1개", mall: "그 \"몰\"", brand: " 앞공백", maker: "줄\n바꿈")])
        let record = text.components(separatedBy: "\r\n")[1]
        XCTAssertTrue(record.contains(#","P&G 다우니, 5.03L, 1개","#), record)
        XCTAssertTrue(record.contains(#","그 ""몰""","#), record)
        XCTAssertTrue(record.contains(#"," 앞공백","#), record)
        XCTAssertFalse(record.contains("\n"), record)
        XCTAssertEqual(parseCSV(text).map(\.count), [12, 12])
        XCTAssertEqual(parseCSV(text)[1][2], "P&G 다우니, 5.03L, 1개")
        XCTAssertEqual(parseCSV(text)[1][5], "그 \"몰\"")
        XCTAssertEqual(parseCSV(text)[1][6], " 앞공백")
    }

    /// CSV injection: network text a spreadsheet would read as a formula begins with `'`; the
    /// numbers shopy writes itself are left alone.
    func testCSVCellsThatReadAsFormulasAreGuarded() {
        let text = Render.csv([item(1, title: "=cmd|' /C calc'!A0 zz", mall: "@SUM(1+1)", brand: "+1", maker: "-2",
                                    categories: ["=HYPERLINK(\"x\")"], link: "=1", image: "정상")])
        let row = parseCSV(text)[1]
        XCTAssertEqual(row[2], "'=cmd|' /C calc'!A0 zz")
        XCTAssertEqual(row[5], "'@SUM(1+1)")
        XCTAssertEqual(row[6], "'+1")
        XCTAssertEqual(row[7], "'-2")
        XCTAssertEqual(row[8], "'=HYPERLINK(\"x\")")
        XCTAssertEqual(row[10], "'=1")
        XCTAssertEqual(row[11], "정상")
        XCTAssertEqual(row[0], "1")
        XCTAssertEqual(row[3], "19800")
        XCTAssertEqual(Render.csvText("a=b"), "a=b", "only a formula's first character")
        // A formula behind an invisible character the cleaning removes is guarded too.
        let hidden = parseCSV(Render.csv([item(1, title: "\u{200B}=1+1", mall: "\u{FEFF}=HYPERLINK(1)", brand: "\u{202E}@x")]))[1]
        XCTAssertEqual([hidden[2], hidden[5], hidden[6]], ["'=1+1", "'=HYPERLINK(1)", "'@x"])
    }

    func testCSVHostileRowsStayRectangular() {
        let rows = parseCSV(Render.csv(hostile))
        XCTAssertEqual(rows.count, hostile.count + 1)
        for row in rows { XCTAssertEqual(row.count, 12, "\(row)") }
        for row in rows.dropFirst() {
            for field in row {
                XCTAssertFalse(field.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) },
                               field.debugDescription)
            }
        }
    }

    func testCSVWithLiked() {
        let text = Render.csv([item(1, liked: true), item(2, liked: false)])
        let rows = parseCSV(text)
        XCTAssertEqual(rows[0].last, "liked")
        XCTAssertEqual(rows[1].last, "true")
        XCTAssertEqual(rows[2].last, "false")
    }

    /// A strict RFC 4180 reader (CRLF records), for checking what Render.csv writes.
    private func parseCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text.unicodeScalars)[...]
        var atFieldStart = true
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { chars.removeFirst(); field.unicodeScalars.append("\"") } else { quoted = false }
                } else {
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"" where atFieldStart:
                quoted = true
                atFieldStart = false
            case ",":
                row.append(field); field = ""; atFieldStart = true
            case "\r":
                XCTAssertEqual(chars.popFirst(), "\n", "CR only as part of CRLF")
                row.append(field); rows.append(row); row = []; field = ""; atFieldStart = true
            default:
                XCTAssertNotEqual(c, "\"", "a quote inside an unquoted field")
                XCTAssertNotEqual(c, "\n", "a bare LF")
                field.unicodeScalars.append(c)
                atFieldStart = false
            }
        }
        XCTAssertTrue(row.isEmpty && field.isEmpty, "the last record ends with CRLF")
        return rows
    }

    // MARK: - JSONL and ItemJSON

    func testJSONL() throws {
        let items = hostile + koreanItems + [item(7, liked: true)]
        let text = Render.jsonl(items)
        XCTAssertTrue(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, items.count)
        for (line, listed) in zip(lines, items) {
            XCTAssertFalse(line.contains("\r"))
            XCTAssertFalse(line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) || $0 == "\u{202E}" },
                           "no raw control characters: \(line.debugDescription)")
            let value = try JSONParser.parse(String(line))
            XCTAssertEqual(value, ItemJSON.object(listed))
            XCTAssertEqual(value["rank"], .number(String(listed.rank)))
            XCTAssertEqual(value["title"]?.stringValue, listed.product.title, "exact title survives")
        }
        XCTAssertEqual(Render.jsonl([]), "")
    }

    func testItemJSONKeyOrder() {
        let keys = ["rank", "productId", "title", "price", "highPrice", "mall", "brand", "maker", "categories", "productType", "link", "image"]
        XCTAssertEqual(ItemJSON.object(item(1)).objectValue?.keys, keys)
        XCTAssertEqual(ItemJSON.object(item(1, liked: false)).objectValue?.keys, keys + ["liked"])
        XCTAssertEqual(ItemJSON.object(item(1, liked: true))["liked"], .bool(true))
        var extra = item(1, liked: true)
        extra.extra = [("likedAt", .string("2025-01-01T00:00:00Z"))]
        XCTAssertEqual(ItemJSON.object(extra).objectValue?.keys, keys + ["liked", "likedAt"])
    }

    func testItemJSONValues() {
        let full = ItemJSON.object(item(3, highPrice: 25000, brand: "나이키", maker: "나이키코리아"))
        XCTAssertEqual(full["rank"], .number("3"))
        XCTAssertEqual(full["productId"], .string("81813683218"), "productId is a string")
        XCTAssertEqual(full["price"], .number("19800"))
        XCTAssertEqual(full["highPrice"], .number("25000"))
        XCTAssertEqual(full["brand"], .string("나이키"))
        XCTAssertEqual(full["categories"], .array([.string("패션의류"), .string("남성의류")]))
        XCTAssertEqual(full["productType"], .number("2"))

        let sparse = ItemJSON.object(item(4, price: nil, mall: nil, categories: [], productType: nil, link: nil, image: nil))
        for key in ["price", "highPrice", "mall", "brand", "maker", "productType", "link", "image"] {
            XCTAssertEqual(sparse[key], .null, key)
        }
        XCTAssertEqual(sparse["categories"], .array([]))
    }

    // MARK: - Table

    func testTableFitsEveryWidth() {
        for items in [koreanItems, hostile, [item(1)], koreanItems.map { var i = $0; i.liked = i.rank % 2 == 0; return i }] {
            for columns in [30, 40, 60, 80, 120] {
                for color in [false, true] {
                    let lines = Render.table(items, columns: columns, color: color)
                    XCTAssertEqual(lines.count, items.count + 1, "a header and one line a row")
                    for line in lines {
                        let plain = stripANSI(line)
                        XCTAssertLessThanOrEqual(DisplayWidth.of(plain), columns, "columns \(columns) color \(color): \(plain)")
                        XCTAssertFalse(plain.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) },
                                       "no controls in a table line: \(plain.debugDescription)")
                        XCTAssertFalse(plain.contains("\n"))
                    }
                }
            }
        }
    }

    /// 20 is the narrowest width IO.columns gives; the table must still fit.
    func testTableFitsTheNarrowestWidth() {
        let items = (9...12).map { item($0, price: 1_190_000, liked: $0 % 2 == 0) }
        let lines = Render.table(items, columns: 20, color: false)
        let tooWide = lines.filter { DisplayWidth.of($0) > 20 }
        XCTAssertEqual(tooWide, [], "lines wider than 20 columns")
        let plain = Render.table([item(1, price: 19800)], columns: 20, color: false)
        XCTAssertEqual(plain.filter { DisplayWidth.of($0) > 20 }, [])
    }

    func testTableUsesTheWidth() {
        // Long titles are cut to the width, not far short of it.
        let lines = Render.table(koreanItems, columns: 80, color: false)
        let widths = lines.dropFirst().map { DisplayWidth.of($0) }
        XCTAssertGreaterThanOrEqual(widths.max() ?? 0, 78)
        XCTAssertTrue(lines.contains { $0.hasSuffix("…") }, "a cut title ends with an ellipsis")
    }

    func testTableAlignment() {
        let items = [item(9, title: "아홉", price: 19800, mall: "몰"), item(10, title: "열", price: 1_234_000, mall: "네이버"),
                     item(11, title: "가격 없음", price: nil, mall: nil)]
        let lines = Render.table(items, columns: 80, color: false)
        XCTAssertEqual(lines.count, 4)
        // rank width 2, price width 11 ("1,234,000원"), mall width 6 ("네이버"); numbers right-aligned,
        // two spaces between columns.
        func spaces(_ n: Int) -> String { String(repeating: " ", count: n) }
        XCTAssertEqual(lines[0], " #" + "  " + spaces(6) + "PRICE" + "  " + "MALL" + spaces(2) + "  " + "TITLE")
        XCTAssertEqual(lines[1], " 9" + "  " + spaces(3) + "19,800원" + "  " + "몰" + spaces(4) + "  " + "아홉")
        XCTAssertEqual(lines[2], "10" + "  " + "1,234,000원" + "  " + "네이버" + "  " + "열")
        XCTAssertEqual(lines[3], "11" + "  " + spaces(10) + "-" + "  " + "-" + spaces(5) + "  " + "가격 없음")
        XCTAssertTrue(lines[1].hasSuffix("아홉"))
        XCTAssertTrue(lines[3].hasSuffix("가격 없음"))
        // The price column ends at the same display column on every row.
        for line in lines.dropFirst() {
            let price = line.split(separator: " ", omittingEmptySubsequences: true)[1]
            let range = line.range(of: String(price))!
            XCTAssertEqual(DisplayWidth.of(String(line[..<range.upperBound])), 2 + 2 + 11, line)
        }
        XCTAssertFalse(lines.contains { $0.hasSuffix(" ") }, "no trailing spaces")
    }

    func testTableColor() {
        let colored = Render.table(koreanItems, columns: 80, color: true)
        XCTAssertTrue(colored.contains { $0.contains("\u{1B}[") })
        XCTAssertTrue(colored[0].hasPrefix("\u{1B}[1m"), "bold header")
        XCTAssertEqual(colored.map(stripANSI), Render.table(koreanItems, columns: 80, color: false),
                       "colour adds escapes and nothing else")
        for columns in [30, 60, 120] {
            for line in Render.table(koreanItems + hostile, columns: columns, color: false) {
                XCTAssertFalse(line.contains("\u{1B}"), line.debugDescription)
            }
        }
    }

    func testTablePrices() {
        let lines = Render.table([item(1, price: 19800), item(2, price: nil), item(3, price: 0), item(4, price: 5_061_752)],
                                 columns: 80, color: false)
        XCTAssertTrue(lines[1].contains("19,800원"))
        XCTAssertTrue(lines[2].contains("  -  "), lines[2])
        XCTAssertFalse(lines[2].contains("원"), lines[2])
        XCTAssertFalse(lines[3].contains("0원"), "a zero price is unknown: \(lines[3])")
        XCTAssertTrue(lines[4].contains("5,061,752원"))
        XCTAssertEqual(Money.won(19800), "19,800원")
        XCTAssertEqual(Money.won(nil), "-")
        XCTAssertEqual(Money.won(0), "-")
    }

    func testTableWithLiked() {
        let lines = Render.table([item(1, liked: true), item(2, liked: false)], columns: 60, color: false)
        XCTAssertTrue(lines[0].contains("♥"))
        XCTAssertTrue(lines[1].contains("♥"))
        XCTAssertFalse(lines[2].contains("♥"))
        XCTAssertEqual(Render.table([], columns: 80, color: true), [])
    }

    func testEveryFormatDropsInvisibleFormatCharacters() {
        let sneaky = item(1, title: "\u{FEFF}방충망\u{200B} 모기장\u{2060}", mall: "몰\u{FEFF}\u{E0041}")
        let invisible: (Unicode.Scalar) -> Bool = { [0xFEFF, 0x200B, 0x2060, 0xE0041].contains($0.value) }
        let tsv = Render.tsv([sneaky])
        XCTAssertEqual(Render.lines([sneaky], format: .tsv), tsv)
        let cells = tsv.dropLast().split(separator: "\t", omittingEmptySubsequences: false)
        XCTAssertEqual(cells[3], "몰")
        XCTAssertEqual(cells[4], "방충망 모기장")
        let csv = parseCSV(Render.lines([sneaky], format: .csv) ?? "")
        XCTAssertEqual(csv[1][2], "방충망 모기장")
        XCTAssertEqual(csv[1][5], "몰")
        let table = Render.table([sneaky], columns: 80, color: false).joined(separator: "\n")
        XCTAssertFalse(table.unicodeScalars.contains(where: invisible), table.debugDescription)
        XCTAssertTrue(table.contains("방충망 모기장"), table)
        let line: TerminalText = "liked: \(sneaky.product.title) (\(sneaky.product.mall ?? ""))"
        XCTAssertEqual(line.rendered, "liked: 방충망 모기장 (몰)")
    }

    func testTableSanitizesNetworkText() {
        let lines = Render.table(hostile, columns: 120, color: false)
        XCTAssertFalse(lines.joined().contains("\u{1B}"))
        XCTAssertFalse(lines.joined().contains("\u{202E}"))
        XCTAssertTrue(lines[1].contains("탭 있는 제목"), lines[1])
    }
}
