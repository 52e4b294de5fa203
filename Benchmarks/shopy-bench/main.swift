// shopy-bench: the benchmarks the issues ask for, each printed side by side with its reference.
//
//   swift build -c release --static-swift-stdlib && .build/release/shopy-bench [search|likes|rank|sources|…|all] [--runs N]
//
// (--static-swift-stdlib: shopy as Scripts/release.sh builds it, the way it is installed.)
// It runs the release binaries beside itself (shopy, shopy-emulator) and the Python references
// in Benchmarks/python/. Figures are medians of whole-process runs, timed with a monotonic clock;
// peak RSS comes from wait4's rusage. Not a test: nothing here passes or fails.
import Foundation
import ShopYCore
import ShopYCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase
import ShopYCatalog
import ShopYTestSupport

// MARK: - Running processes

struct Run {
    var seconds: Double
    var maxRSSKiB: Int
    var status: Int32
}

/// posix_spawn + wait4, so that each child's own peak RSS is known. stdout goes to `stdoutPath`.
func spawn(_ argv: [String], environment: [String: String], stdoutPath: String = "/dev/null") -> Run {
    let run = spawnMeasured(argv, environment: environment, stdoutPath: stdoutPath)
    return Run(seconds: run.wall, maxRSSKiB: run.maxRSSKiB, status: run.status)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func ms(_ seconds: Double) -> String { String(format: "%.1f ms", seconds * 1000) }

let binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
let shopy = binDirectory + "/shopy"
let emulatorBinary = binDirectory + "/shopy-emulator"

/// The real Python interpreter (not a version manager's shell shim, which would add its own
/// start-up time to Python's figures).
let python: String = {
    let found = try? ChildProcess.run("/usr/bin/env", ["python3", "-c", "import sys; print(sys.executable)"])
    let path = (found?.stdout ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    return path.isEmpty ? "/usr/bin/python3" : path
}()

func temporaryDirectory(_ name: String) -> String {
    let path = NSTemporaryDirectory() + "shopy-bench-\(name)-\(getpid())"
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

// MARK: - Benchmarks

func titleCleaning() {
    print("## Title cleaning (340 recorded titles, as recorded and with the API's <b> marks)")
    let titles = Catalog.embedded.items.map(\.title)
    // What the API sends for a query: the first word of each title in bold.
    let bolded = titles.map { title -> String in
        guard let first = title.split(separator: " ").first else { return title }
        return "<b>\(first)</b>" + title.dropFirst(first.count)
    }
    let corpus = titles + bolded
    let repeats = 3000
    let directory = temporaryDirectory("titles")
    let file = directory + "/titles.json"
    _ = FileManager.default.createFile(atPath: file, contents: Data(JSONWriter.serialize(.array(corpus.map(JSONValue.string)))))

    var checksum = 0
    // The median of five rounds, as the Python side does, so that one noisy round decides nothing.
    func rate(_ titles: [String]) -> Double {
        var rates: [Double] = []
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<(repeats / 5) {
                for title in titles { checksum &+= TitleCleaner.clean(title).utf8.count }
            }
            rates.append(Double(repeats / 5 * titles.count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9))
        }
        return median(rates)
    }
    let swiftRate = rate(corpus)
    let plainRate = rate(titles), boldRate = rate(bolded)

    let output = directory + "/python.txt"
    _ = spawn([python, repository + "/Benchmarks/python/clean_titles.py", file, "300"], environment: ["PATH": "/usr/bin:/bin"], stdoutPath: output)
    let pythonRate = Double((try? String(contentsOfFile: output, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? .nan
    print(String(format: "shopy TitleCleaner.clean     %12.0f titles/s", swiftRate))
    print(String(format: "python re.sub + html.unescape %11.0f titles/s", pythonRate))
    print(String(format: "ratio: %.1f× faster (goal ≥ 10×)   [as recorded: %.0f/s, bolded: %.0f/s; checksum %d]", swiftRate / pythonRate, plainRate, boldRate, checksum))
    print()
}

func searchProcess(runs: Int) {
    print("## Whole-process search against the emulator: 100 items as JSON (\(runs) runs each, median)")
    let emulator = Emulator()
    defer { emulator.stop() }
    let home = temporaryDirectory("search-home")
    let env = emulator.environment(home: home)
    let query = "생활"  // matches 300 recorded items, so a full page of 100
    let shopyArgs = [shopy, "search", query, "--format", "json", "--size", "100"]
    let pythonArgs = [python, repository + "/Benchmarks/python/search.py", emulator.base, query, "100"]
    // Warm up both (page cache, the emulator's first answer).
    for _ in 0..<3 {
        _ = spawn(shopyArgs, environment: env)
        _ = spawn(pythonArgs, environment: env)
    }
    var shopyTimes: [Double] = [], pythonTimes: [Double] = [], rss: [Int] = [], pythonRSS: [Int] = []
    for _ in 0..<runs {
        let a = spawn(shopyArgs, environment: env)
        precondition(a.status == 0, "shopy search failed with \(a.status)")
        shopyTimes.append(a.seconds)
        rss.append(a.maxRSSKiB)
        let b = spawn(pythonArgs, environment: env)
        precondition(b.status == 0, "the Python script failed with \(b.status)")
        pythonTimes.append(b.seconds)
        pythonRSS.append(b.maxRSSKiB)
    }
    let s = median(shopyTimes), p = median(pythonTimes)
    print("shopy search --format json --size 100   \(ms(s))")
    print("python urllib + json + cleaning         \(ms(p))")
    print(String(format: "ratio: %.2f× faster (goal ≥ 2×)", p / s))
    let peak = rss.max() ?? 0
    print(String(format: "peak RSS of shopy search: %.1f MiB (goal ≤ 40 MiB); Python's: %.1f MiB", Double(peak) / 1024, Double(pythonRSS.max() ?? 0) / 1024))
    print()
}

/// 1,500 items that all match one keyword, so a scan can go to rank 1,099.
func deepItemsFile() -> String {
    var items: [JSONValue] = []
    for rank in 1...1500 {
        items.append(WireItem(title: "벤치키워드 상품 \(rank)", link: "https://example.test/\(rank)", image: "", lprice: "\(1000 + rank)",
                              hprice: "", mallName: "몰\(rank % 37)", productId: String(50_000_000_000 + rank), productType: "2").json)
    }
    let path = temporaryDirectory("rank") + "/items.json"
    _ = FileManager.default.createFile(atPath: path, contents: Data(JSONWriter.serialize(.array(items))))
    return path
}

func rankScan(runs: Int) {
    let latency = 0.4, rate = 8.0, requests = 11
    print("## Rank scan to depth 1,099 for an absent product (\(requests) requests): emulator with 400 ms latency and a 10/s throttle (\(runs) runs, median)")
    let emulator = Emulator(["--items", deepItemsFile(), "--latency", "400", "--rate-limit", "10"])
    defer { emulator.stop() }
    let home = temporaryDirectory("rank-home")
    let env = emulator.environment(home: home)
    let args = [shopy, "rank", "벤치키워드", "--product", "99999999999", "--depth", "1099", "--json"]
    var times: [Double] = [], rss: [Int] = []
    for _ in 0..<runs {
        let run = spawn(args, environment: env)
        precondition(run.status == 0, "shopy rank failed with \(run.status)")
        times.append(run.seconds)
        rss.append(run.maxRSSKiB)
    }
    // The same requests one after another, in process, through the same client.
    let client = NaverClient(base: URL(string: emulator.base)!, credentials: NaverCredentials(clientID: "bench-id", clientSecret: "bench-secret"))
    var sequential: [Double] = []
    for _ in 0..<max(1, runs / 3) {
        let start = DispatchTime.now().uptimeNanoseconds
        let semaphore = DispatchSemaphore(value: 0)
        Task {
            for page in RankCommand.pages(depth: 1099) {
                _ = try? await client.search(SearchRequest(query: "벤치키워드", sort: .sim, start: page.start, display: page.display), timeout: 10)
            }
            semaphore.signal()
        }
        semaphore.wait()
        sequential.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let stats = emulatorControl(emulator.base, "/_emulator/stats")
    let scan = median(times), seq = median(sequential)
    let bound = Double(requests - 1) / rate + latency
    print("shopy rank (concurrent, 8 requests/s)   \(ms(scan))")
    print("the same 11 requests one after another  \(ms(seq))")
    print(String(format: "ratio: %.2f× the sequential time (goal ≤ 0.45×)", scan / seq))
    print(String(format: "bound set by the rate limit: %.0f ms ((11−1)/8 s + 400 ms); shopy is %+.0f%% from it (goal within 15%%)", bound * 1000, (scan / bound - 1) * 100))
    print("throttled answers (012) over all runs: \(stats["throttled"]?.intValue ?? -1) (goal 0)")
    print(String(format: "peak RSS of shopy rank: %.1f MiB (goal ≤ 50 MiB)", Double(rss.max() ?? 0) / 1024))
    print()
}

// MARK: - Main

var arguments = Array(CommandLine.arguments.dropFirst())
var runs = 21
if let index = arguments.firstIndex(of: "--runs"), index + 1 < arguments.count, let n = Int(arguments[index + 1]) {
    runs = max(1, n)
    arguments.removeSubrange(index...(index + 1))
}
// `likes --sizes 100000`: only those store sizes (default 1,000, 10,000 and 100,000).
var likesSizes = [1_000, 10_000, 100_000]
if let index = arguments.firstIndex(of: "--sizes"), index + 1 < arguments.count {
    let sizes = arguments[index + 1].split(separator: ",").compactMap { Int($0) }.filter { $0 > 0 }
    if !sizes.isEmpty { likesSizes = sizes }
    arguments.removeSubrange(index...(index + 1))
}
let which = arguments.first ?? "all"
// The benchmarks that talk to a server need the emulator; the others only shopy.
let needsEmulator = !["likes", "browse", "catalog", "json", "prices", "pictures"].contains(which)
guard FileManager.default.isExecutableFile(atPath: shopy), !needsEmulator || FileManager.default.isExecutableFile(atPath: emulatorBinary) else {
    print("shopy-bench: build the release binaries first: swift build -c release --static-swift-stdlib (\(needsEmulator ? "shopy and shopy-emulator" : "shopy"))")
    exit(1)
}
print("shopy-bench on \(ProcessInfo.processInfo.activeProcessorCount) cores; python: \(python)\n")
switch which {
case "search":
    titleCleaning()
    searchProcess(runs: runs)
case "likes":
    likesAtScale(runs: runs, sizes: likesSizes)
case "rank":
    rankScan(runs: min(runs, 9))
case "trends": trendsKeywords(runs: min(runs, 9))
case "transport": transportBench(runs: runs)
case "deadlines": deadlineBench(runs: runs)
case "browse": browseBench(runs: runs)
case "widget": widgetBench(runs: runs)
case "refresh": refreshBench(runs: min(runs, 3))
case "catalog":
    catalogBench(runs: runs)
    catalogInstructions()
case "json": jsonBench()
case "prices": pricesBench(runs: min(runs, 7))
case "pictures": pictureBench(runs: runs)
case "sources": sourcesBench(runs: runs)
case "all":
    titleCleaning()
    searchProcess(runs: runs)
    likesAtScale(runs: runs)
    rankScan(runs: min(runs, 9))
    transportBench(runs: runs)
    jsonBench()
    pricesBench(runs: min(runs, 7))
default:
    print("usage: shopy-bench [search|likes|rank|transport|deadlines|trends|browse|widget|refresh|catalog|json|prices|pictures|sources|all] [--runs N] [--sizes N,…]")
    exit(64)
}
