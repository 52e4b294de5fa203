// shopy-bench refresh: `shopy likes refresh` of 100 likes against the emulator with 400 ms
// latency and a 10/s throttle, at the default 8 requests a second.
import Foundation
import ShopYCore
import ShopYCLI
import ShopYBase
import ShopYCatalog

func refreshBench(runs: Int) {
    let latency = 0.4, rate = 8.0, count = 100
    print("## shopy likes refresh, \(count) likes: emulator with 400 ms latency and a 10/s throttle, --rate 8 (\(runs) runs, median)")
    let emulator = Emulator(["--latency", "400", "--rate-limit", "10"])
    defer { emulator.stop() }
    let home = temporaryDirectory("refresh-home")
    var likes: [JSONValue] = []
    var seen = Set<String>()
    for item in Catalog.embedded.items where likes.count < count && seen.insert(item.productId).inserted {
        let product = ProductMapper.product(from: item)
        likes.append(Like(product: product, likedAt: "2026-12-01T00:00:00Z", likedPrice: product.price).json)
    }
    let file = home + "/likes-export.json"
    try! Data(JSONWriter.serialize(.array(likes))).write(to: URL(fileURLWithPath: file))
    let env = emulator.environment(home: home)
    precondition(spawn([shopy, "likes", "import", file], environment: env).status == 0, "import failed")
    let output = home + "/refresh.json"
    var times: [Double] = [], requests: [Int] = []
    var outcomes: [String: Int] = [:]
    for _ in 0..<runs {
        let before = emulatorControl(emulator.base, "/_emulator/stats")["requests"]?.intValue ?? 0
        let run = spawn([shopy, "likes", "refresh", "--json"], environment: env, stdoutPath: output)
        precondition(run.status == 0, "shopy likes refresh failed with \(run.status)")
        times.append(run.seconds)
        requests.append((emulatorControl(emulator.base, "/_emulator/stats")["requests"]?.intValue ?? 0) - before)
        let json = (try? JSONParser.parse(Array((try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data()))) ?? .null
        if case .array(let items)? = json["items"] {
            for item in items { outcomes[item["outcome"]?.stringValue ?? "?", default: 0] += 1 }
        }
    }
    let stats = emulatorControl(emulator.base, "/_emulator/stats")
    let wall = median(times)
    let perRun = median(requests.map(Double.init))
    let bound = (perRun - 1) / rate + latency
    print("shopy likes refresh (100 likes)          \(ms(wall))")
    print(String(format: "bound set by the rate limit: %.0f ms ((%.0f−1)/8 s + 400 ms); shopy is %+.1f%% from it (goal within 10%%)", bound * 1000, perRun, (wall / bound - 1) * 100))
    print(String(format: "requests per run: %.0f, %.2f per like (goal ≤ 1.2 when each product is on the first page)", perRun, perRun / Double(count)))
    print("outcomes over all runs: \(outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
    print("throttled answers (012) over all runs: \(stats["throttled"]?.intValue ?? -1) (goal 0)")
    print()
}
