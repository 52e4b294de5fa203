// shopy-bench sources: a search over two live sources against one (they are asked at once), and
// reading a 200-item 11번가 answer beside Python's xml.etree.
import Foundation
import ShopYCore
import ShopYCLI
import ShopYCatalog

func sourcesBench(runs: Int) {
    twoSources(runs: runs)
    elevenStreetParsing()
}

/// `shopy search` over 11번가 and Coupang against 11번가 alone, both at 200 ms latency, whole
/// processes taken in turn. Each run has a store of its own and a query of its own, so that
/// Coupang's cache answers nothing and no signature is sent twice.
func twoSources(runs: Int) {
    let latency = 200
    print("## search over two sources at \(latency) ms latency each, against one source (\(runs) runs each, in turn, median)")
    let emulator = Emulator(["--latency", String(latency)])
    defer { emulator.stop() }
    let words = ["방충망", "고양이", "세제", "노트북", "강아지", "모기장", "태블릿"]
    func environment(_ run: Int) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SHOPY_HOME": temporaryDirectory("sources-\(run)"),
         "SHOPY_11ST_BASE": emulator.base, "ELEVENST_API_KEY": "emulator-11st-key",
         "SHOPY_COUPANG_BASE": emulator.base, "COUPANG_ACCESS_KEY": "emulator-coupang-access", "COUPANG_SECRET_KEY": "emulator-coupang-secret"]
    }
    func args(_ run: Int, _ sources: String) -> [String] {
        [shopy, "search", words[run % words.count], "--size", String(4 + run / words.count % 6), "--source", sources, "--format", "json"]
    }
    for warm in 0..<2 {
        _ = spawn(args(100 + warm, "11st"), environment: environment(100 + warm))
    }
    var two: [Double] = [], one: [Double] = []
    for run in 0..<runs {
        // Alternate which goes first, so that both meet the same load.
        let order = run % 2 == 0 ? ["11st,coupang", "11st"] : ["11st", "11st,coupang"]
        for sources in order {
            let result = spawn(args(run, sources), environment: environment(run))
            precondition(result.status == 0, "shopy search --source \(sources) failed with \(result.status)")
            if sources == "11st" { one.append(result.seconds) } else { two.append(result.seconds) }
        }
    }
    let a = median(two), b = median(one)
    print("shopy search --source 11st,coupang   \(ms(a))")
    print("shopy search --source 11st           \(ms(b))")
    print(String(format: "ratio: %.2f× one source's time (goal ≤ 1.2×)", a / b))
    print()
}

/// A 200-item answer as 11번가 sends it (EUC-KR, CDATA, some empty fields), read by shopy
/// (strict EUC-KR decoding, the bounded reader, the fields) and by Python's xml.etree.
func elevenStreetParsing() {
    print("## reading a 200-item 11번가 answer (EUC-KR XML): shopy against Python's xml.etree (median of 5 rounds)")
    var text = #"<?xml version="1.0" encoding="EUC-KR" standalone="yes"?>"# + "\n<ProductSearchResponse><Request></Request><Products><TotalCount>48213</TotalCount>"
    let items = Catalog.embedded.items
    for k in 0..<200 {
        let item = items[k % items.count]
        let price = Int(item.lprice ?? "") ?? 1000
        text += "<Product><ProductCode>\(5_000_000_000 + k)</ProductCode><ProductName><![CDATA[\(item.title.replacingOccurrences(of: "<b>", with: "").replacingOccurrences(of: "</b>", with: ""))]]></ProductName>"
        text += "<ProductPrice>\(price * 11 / 10)</ProductPrice><SalePrice>\(k % 3 == 0 ? "" : String(price))</SalePrice>"
        text += "<ProductImage><![CDATA[\(item.image ?? "")]]></ProductImage><ProductImage300><![CDATA[\(item.image ?? "")]]></ProductImage300>"
        text += "<SellerNick><![CDATA[\(k % 7 == 0 ? "" : item.mallName ?? "")]]></SellerNick><Seller>seller\(k)</Seller>"
        text += "<DetailPageUrl><![CDATA[http://www.11st.co.kr/product/SellerProductDetail.tmall?method=getSellerProductDetail&prdNo=\(5_000_000_000 + k)]]></DetailPageUrl>"
        text += "<Delivery><![CDATA[무료]]></Delivery><ReviewCount>\(k * 7)</ReviewCount><BuySatisfy>9\(k % 10)</BuySatisfy><Rating>\(k % 6)</Rating></Product>"
    }
    text += "</Products></ProductSearchResponse>\n"
    let bytes = EUCKR.encode(text) { "&#\($0.value);" }!
    let path = temporaryDirectory("elevenst") + "/answer.xml"
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))

    let rounds = 200
    var checksum = 0
    var times: [Double] = [], mapped: [Double] = []
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<rounds {
            let answer = try! ElevenStreetAnswer.search(bytes)
            checksum &+= answer.totalCount &+ answer.products.count
        }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(rounds))
        let mapStart = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<rounds {
            checksum &+= (try! ElevenStreetAnswer.search(bytes)).products.compactMap(ElevenStreetSource.product).count
        }
        mapped.append(Double(DispatchTime.now().uptimeNanoseconds - mapStart) / 1e9 / Double(rounds))
    }
    let output = temporaryDirectory("elevenst-python") + "/python.txt"
    _ = spawn([python, repository + "/Benchmarks/python/elevenst_parse.py", path, String(rounds / 4)], environment: ["PATH": "/usr/bin:/bin"], stdoutPath: output)
    let reference = Double((try? String(contentsOfFile: output, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? .nan
    let ours = median(times)
    print(String(format: "answer: %d bytes, 200 products", bytes.count))
    print(String(format: "shopy ElevenStreetAnswer.search        %8.3f ms (and mapped to products, titles cleaned: %.3f ms)", ours * 1000, median(mapped) * 1000))
    print(String(format: "python decode + xml.etree + fields     %8.3f ms", reference * 1000))
    print(String(format: "ratio: %.2f× Python's time (goal ≤ 0.5×)   [checksum %d]", ours / reference, checksum))
    print()
}
