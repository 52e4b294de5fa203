// Catalog search at 340 and 100,000 items, and `catalog import` of 100,000 (issues 17 and 25),
// each beside its Python reference (Benchmarks/python/catalog_search.py, catalog_import.py).
import Foundation
import ShopYCore
import ShopYCLI
import ShopYBase
import ShopYCatalog

/// Items made from the recorded ones: varied titles, ids, malls and prices.
func generatedCatalogItems(_ count: Int, seed: UInt64 = 17) -> [WireItem] {
    var state = seed
    func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
    let source = Catalog.embedded.items
    let words = ["특가", "신상", "대용량", "미니", "프로", "MAX", "세트", "리뉴얼", "정품", "한정판", "블랙", "화이트", "그레이", "베이지"]
    return (0..<count).map { i in
        var item = source[Int(next() % UInt64(source.count))]
        item.title = "\(words[Int(next() % UInt64(words.count))]) \(item.title) \(words[Int(next() % UInt64(words.count))])\(i % 97)"
        item.productId = String(60_000_000_000 + i)
        item.mallName = "몰\(i % 5000)"
        item.lprice = String(100 + Int(next() % 500_000))
        return item
    }
}

/// The child's peak RSS in KiB as /usr/bin/time reports it (0 without /usr/bin/time).
func peakRSSKiB(_ argv: [String], _ environment: [String: String]) -> Int {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return 0 }
    let out = temporaryDirectory("catalog-rss") + "/rss"
    let run = spawn(["/usr/bin/time", "-f", "%M", "-o", out] + argv, environment: environment)
    precondition(run.status == 0, "\(argv) exited \(run.status) under /usr/bin/time")
    defer { try? FileManager.default.removeItem(atPath: out) }
    let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    return Int(text.split(separator: "\n").last.map(String.init) ?? "") ?? 0
}

func catalogBench(runs: Int) {
    print("## Catalog search and import (shopy search 방충망 --source catalog --format json)")
    let query = "방충망"
    let fixture = repository + "/Fixtures/recorded-items.json"
    let env = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"]
    // Peak RSS through /usr/bin/time (fork + exec): a posix_spawn child's own ru_maxrss starts
    // from this process's high-water mark, which the generated items make hundreds of MiB.
    func timed(_ argv: [String], _ environment: [String: String], runs: Int) -> (Double, Int) {
        var times: [Double] = []
        for _ in 0..<runs {
            let run = spawn(argv, environment: environment)
            precondition(run.status == 0, "\(argv) exited \(run.status)")
            times.append(run.seconds)
        }
        return (median(times), peakRSSKiB(argv, environment))
    }
    // The 340-item search and its Python reference in turn, so that both meet the same load
    // on this shared machine (run one after the other, a busy minute fell on one of them).
    let emptyHome = temporaryDirectory("catalog-340")
    let search = [shopy, "search", query, "--source", "catalog", "--format", "json"], searchEnv = env.merging(["SHOPY_HOME": emptyHome]) { $1 }
    let reference = [python, "-S", "-E", repository + "/Benchmarks/python/catalog_search.py", fixture, query, "20"]
    var oursTimes: [Double] = [], theirTimes: [Double] = []
    // At least 25 rounds: a round costs some 35 ms, and the medians of 9 moved by a tenth.
    for round in 0..<max(runs, 25) {
        // Each first in every other round, so that neither always follows the other.
        let first = round % 2 == 0
        let b0 = first ? nil : spawn(reference, environment: env)
        let a = spawn(search, environment: searchEnv)
        let b = b0 ?? spawn(reference, environment: env)
        precondition(a.status == 0, "shopy search exited \(a.status)")
        precondition(b.status == 0, "the Python reference exited \(b.status)")
        oursTimes.append(a.seconds)
        theirTimes.append(b.seconds)
    }
    let (at340, py340, rss340) = (median(oursTimes), median(theirTimes), peakRSSKiB(search, searchEnv))
    print("  search at 340 items        shopy \(ms(at340))  python -S -E \(ms(py340))  ratio \(String(format: "%.3f", at340 / py340))× (goal ≤ 0.4×)  peak RSS \(String(format: "%.1f", Double(rss340) / 1024)) MiB")

    do {
        let size = 100_000
        let home = temporaryDirectory("catalog-\(size)")
        let items = generatedCatalogItems(size)
        let records = items.map { CatalogRecord(item: $0, firstSeen: "2026-12-01T00:00:00Z", updated: "2026-12-01T00:00:00Z", origin: "bench") }
        try! LocalCatalog(directory: home).write(records, after: 0)
        let (t, rss) = timed([shopy, "search", query, "--source", "catalog", "--format", "json"], env.merging(["SHOPY_HOME": home]) { $1 }, runs: runs)
        print("  search at \(Money.grouped(size)) items  shopy \(ms(t))  \(String(format: "%.2f", t / at340))× its time at 340 (goal ≤ 3×)  peak RSS \(String(format: "%.1f", Double(rss) / 1024)) MiB")
        try? FileManager.default.removeItem(atPath: home)
    }

    // Import of 100,000 items (a bare JSON array with 1% duplicates) into an empty catalog.
    let directory = temporaryDirectory("catalog-import")
    var items = generatedCatalogItems(100_000, seed: 99)
    for i in stride(from: 0, to: 1000, by: 1) { items[i * 97].productId = items[i * 97 + 1].productId }
    let file = directory + "/items.json"
    _ = FileManager.default.createFile(atPath: file, contents: Data(JSONWriter.serialize(.array(items.map(\.json)))))
    let importRuns = max(3, runs / 4)
    var ours: [Double] = [], theirs: [Double] = []
    for round in 0..<importRuns {
        let home = directory + "/home-\(round)"
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let run = spawn([shopy, "catalog", "import", file], environment: env.merging(["SHOPY_HOME": home]) { $1 })
        precondition(run.status == 0, "catalog import exited \(run.status)")
        ours.append(run.seconds)
        theirs.append(spawn([python, "-S", "-E", repository + "/Benchmarks/python/catalog_import.py", file, home + "/py.json"], environment: env).seconds)
        try? FileManager.default.removeItem(atPath: home)
    }
    print("  import of 100,000 items    shopy \(ms(median(ours)))  python json+dedupe+fsync \(ms(median(theirs)))  ratio \(String(format: "%.3f", median(ours) / median(theirs)))× (goal ≤ 0.3×)")
    try? FileManager.default.removeItem(atPath: directory)
    print()
}
