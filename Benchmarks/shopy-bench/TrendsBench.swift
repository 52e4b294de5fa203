// shopy-bench trends: `shopy trends keywords` with 12 keywords against the emulator's DataLab.
import Foundation
import ShopYCore
import ShopYCLI
import ShopYBase

/// 12 keywords take 3 requests of 5 (one shared anchor): shopy sends them side by side. Beside
/// it, the same 3 requests one after another in process through the same client.
func trendsKeywords(runs: Int) {
    let latency = 150
    print("## shopy trends keywords, 12 keywords: emulator's DataLab with \(latency) ms latency (\(runs) runs, median)")
    let emulator = Emulator(["--latency", String(latency)])
    defer { emulator.stop() }
    let keywords = ["원피스", "청바지", "니트", "코트", "패딩", "셔츠", "슬랙스", "후드티", "가디건", "점퍼", "레깅스", "블라우스"]
    let env = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "SHOPY_DATALAB_BASE": emulator.base + "/shopping/v1",
               "NAVER_API_HUB_KEY_ID": "bench-id", "NAVER_API_HUB_KEY": "bench-secret"]
    let args = [shopy, "trends", "keywords"] + keywords + ["--category", "50000000", "--from", "2026-06-01", "--to", "2026-11-29", "--json"]
    let output = temporaryDirectory("trends") + "/out.json"
    func emulatorRequests() -> Int {
        let stats = (try? JSONParser.parse(Array((try? Data(contentsOf: URL(string: emulator.base + "/_emulator/datalab/stats")!)) ?? Data()))) ?? .null
        return stats["requests"]?.intValue ?? -1
    }
    _ = spawn(args, environment: env)  // warm-up
    let before = emulatorRequests()
    var times: [Double] = []
    var reported = Set<Int>()
    for _ in 0..<runs {
        let run = spawn(args, environment: env, stdoutPath: output)
        precondition(run.status == 0, "shopy trends failed with \(run.status)")
        times.append(run.seconds)
        let json = (try? JSONParser.parse(Array((try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data()))) ?? .null
        reported.insert(json["requests"]?.intValue ?? -1)
    }
    let perRun = Double(emulatorRequests() - before) / Double(runs)

    // The same three requests, one after another, in process.
    let range = TrendsRange(start: CalendarDate("2026-06-01")!, end: CalendarDate("2026-11-29")!, unit: .week)
    let comparison = TrendsComparison(kind: .keywords, category: ShoppingCategory(code: "50000000", path: ["패션의류"]),
                                      series: keywords.map(TrendsComparison.Series.keyword), range: range, filters: TrendsFilters(), by: nil)
    let keys = DataLabKeys.from(environment: env)!
    let client = DataLabClient(base: URL(string: emulator.base + "/shopping/v1")!, keys: keys, transport: SystemTransport.shared)
    let groups = AnchorPlan.groups(count: keywords.count, limit: DataLabRequest.maxKeywords)
    var sequential: [Double] = []
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        let semaphore = DispatchSemaphore(value: 0)
        Task {
            for (k, group) in groups.enumerated() {
                _ = try? await client.send(comparison.request(for: group), periods: range.periods, deadline: .now + .seconds(10), timeout: 10, label: "\(k + 1)")
            }
            semaphore.signal()
        }
        semaphore.wait()
        sequential.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let ours = median(times), seq = median(sequential)
    print("requests a run: \(String(format: "%.1f", perRun)) at the emulator, \(reported.sorted().map(String.init).joined(separator: ",")) in shopy's JSON (minimum for 12 keywords at 5 a request with one anchor: \(AnchorPlan.requestCount(count: 12, limit: 5)))")
    print("shopy trends keywords (whole process, requests side by side)  \(ms(ours))")
    print("the same \(groups.count) requests one after another (in process)       \(ms(seq))")
    print(String(format: "ratio: %.2f× the sequential time", ours / seq))
    print()
}
