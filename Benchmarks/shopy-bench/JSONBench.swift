// The project's byte-level JSON (Sources/ShopYCore/JSON) in process: building values, walking
// without building, and writing, over the 340 recorded items as the search API sends them.
import Foundation
import ShopYCore
import ShopYBase
import ShopYCatalog

func jsonBench() {
    print("## Byte-level JSON: 340 recorded items as one search answer (in process, median of 5 rounds)")
    let items = Catalog.embedded.items.map(\.json)
    var answer = JSONObject()
    answer["total"] = .int(items.count)
    answer["start"] = .int(1)
    answer["display"] = .int(items.count)
    answer["items"] = .array(items)
    let bytes = JSONWriter.serialize(.object(answer))
    let rounds = 200
    var checksum = 0
    func rate(_ body: () -> Int) -> Double {
        var rates: [Double] = []
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<rounds { checksum &+= body() }
            rates.append(Double(rounds * bytes.count) / 1e6 / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
        }
        return median(rates)
    }
    let parse = rate { (try? JSONParser.parse(bytes))?["items"]?.arrayValue?.count ?? 0 }
    let skip = rate {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer)
            return (try? parser.skipValue())?.count ?? 0
        }
    }
    let value = (try? JSONParser.parse(bytes)) ?? .null
    let write = rate { JSONWriter.serialize(value).count }
    print(String(format: "JSONParser.parse (values)     %8.1f MB/s   [%d bytes]", parse, bytes.count))
    print(String(format: "JSONParser.skipValue (check)  %8.1f MB/s", skip))
    print(String(format: "JSONWriter.serialize          %8.1f MB/s   [checksum %d]", write, checksum))
    print()
}
