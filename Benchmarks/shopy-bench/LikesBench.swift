// `shopy-bench likes`: the likes store at 1,000, 10,000 and 100,000 likes (issue 11): like,
// unlike, `likes --format json`, import and a catalog search with that store (and with a copy of
// it, issue 24), beside the Python
// reference with the same fsyncs (Benchmarks/python/likes.py) and, when it is installed, buku's
// add and delete (SQLite); then the growth of each from 1k to 100k.
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

/// An export file of `count` likes (catalog items with made-up ids), written a like at a time so
/// that this process stays small: a child's peak RSS as wait4 reports it includes the parent's
/// memory at the time of the spawn.
func writeLikesExport(count: Int, to path: String) {
    let items = Catalog.embedded.items.map(ProductMapper.product(from:))
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = FileHandle(forWritingAtPath: path)!
    defer { try? handle.close() }
    var chunk = Array("{\"schema\":1,\n\"exportedAt\":\"2026-12-01T00:00:00Z\",\n\"likes\":[".utf8)
    for i in 0..<count {
        var product = items[i % items.count]
        product.productId = String(90_000_000_000 + i)
        let like = Like(product: product, likedAt: Like.timestamp(Date(timeIntervalSince1970: 1_780_000_000 + Double(i))), likedPrice: product.price)
        chunk += Array((i == 0 ? "\n" : ",\n").utf8) + JSONWriter.serialize(like.json)
        if chunk.count > 1 << 20 {
            handle.write(Data(chunk))
            chunk.removeAll(keepingCapacity: true)
        }
    }
    chunk += Array("\n]}\n".utf8)
    handle.write(Data(chunk))
}

/// The Python that has buku, if any: SHOPY_BENCH_BUKU_PYTHON, else python3 when it imports buku.
let bukuPython: String? = {
    let candidates = [ProcessInfo.processInfo.environment["SHOPY_BENCH_BUKU_PYTHON"], python].compactMap { $0 }
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
        if spawn([candidate, "-c", "import buku"], environment: ["PATH": "/usr/bin:/bin"]).status == 0 { return candidate }
    }
    return nil
}()

struct LikesFigures {
    var like = 0.0, unlike = 0.0, list = 0.0, importing = 0.0, search = 0.0, emptySearch = 0.0
    /// The same search in a copy of the store (cp -r): its first run, then the median beside none.
    var copiedFirst = 0.0, copiedSearch = 0.0, copiedEmpty = 0.0
    var likeRSS = 0, unlikeRSS = 0
    var pyLike = 0.0, pyUnlike = 0.0, pyList = 0.0, pyImport = 0.0
    var bukuAdd: Double?, bukuDelete: Double?
}

func likesAtScale(runs: Int, sizes: [Int] = [1_000, 10_000, 100_000]) {
    print("## Likes at 1k, 10k and 100k (shopy: \(runs) runs each, median; Python and buku: fewer at 100k)")
    if let bukuPython {
        print("buku: \(bukuPython) (SQLite)")
    } else {
        print("buku: not installed (pip install buku, or SHOPY_BENCH_BUKU_PYTHON=…): its columns are left out")
    }
    var figures: [Int: LikesFigures] = [:]
    for size in sizes {
        figures[size] = likesRound(size: size, runs: runs)
    }
    func growth(_ name: String, _ key: (LikesFigures) -> Double?) {
        guard let small = figures[1_000].flatMap(key), let large = figures[100_000].flatMap(key) else { return }
        print("  \(name.padding(toLength: 26, withPad: " ", startingAt: 0)) \(String(format: "%6.2f×", large / small))")
    }
    print("growth from 1k to 100k:")
    growth("shopy like", { $0.like })
    growth("shopy unlike", { $0.unlike })
    growth("shopy likes --format json", { $0.list })
    growth("shopy likes import", { $0.importing })
    growth("shopy search (with likes)", { $0.search })
    growth("python like", { $0.pyLike })
    growth("python unlike", { $0.pyUnlike })
    growth("python list", { $0.pyList })
    growth("python import", { $0.pyImport })
    growth("buku add", { $0.bukuAdd })
    growth("buku delete", { $0.bukuDelete })
    if let large = figures[100_000] {
        print(String(format: "goals at 100k: search %.2f× the empty store's (≤ 1.15×); in a copy of the store %.2f× after its first search (≤ 1.15×)",
                     large.search / large.emptySearch, large.copiedSearch / large.copiedEmpty))
    }
    if let small = figures[1_000], let large = figures[100_000] {
        print(String(format: "goals at 100k: like %.2f× its 1k time (≤ 1.5×), unlike %.2f× (≤ 1.5×), import %.2f s (≤ 3 s), likes --format json %.3f× Python (≤ 0.1×), search %.2f× the empty store's (≤ 1.15×), peak RSS like/unlike %.1f/%.1f MiB (≤ 40)",
                     large.like / small.like, large.unlike / small.unlike, large.importing, large.list / large.pyList,
                     large.search / large.emptySearch, Double(large.likeRSS) / 1024, Double(large.unlikeRSS) / 1024))
    }
    print()
}

private func likesRound(size: Int, runs: Int) -> LikesFigures {
    var f = LikesFigures()
    let home = temporaryDirectory("likes-\(size)")
    let pythonHome = temporaryDirectory("likes-python-\(size)")
    let exportPath = pythonHome + "/export.json"
    writeLikesExport(count: size, to: exportPath)
    let env = ["PATH": "/usr/bin:/bin", "SHOPY_HOME": home, "LANG": "C.UTF-8"]
    precondition(spawn([shopy, "likes", "import", exportPath], environment: env).status == 0, "shopy likes import failed")
    let path = pythonHome + "/likes.json"
    try? FileManager.default.copyItem(atPath: home + "/likes.json", toPath: path)
    let script = repository + "/Benchmarks/python/likes.py"
    let catalogID = Catalog.embedded.items[5].productId
    let slowRuns = size >= 100_000 ? min(runs, 3) : min(runs, 9)

    // The export imported into an empty store, on both sides.
    var importTimes: [Double] = [], pyImportTimes: [Double] = []
    for _ in 0..<slowRuns {
        let target = temporaryDirectory("likes-import-\(size)")
        let run = spawn([shopy, "likes", "import", exportPath], environment: ["PATH": "/usr/bin:/bin", "SHOPY_HOME": target, "LANG": "C.UTF-8"])
        precondition(run.status == 0, "shopy likes import failed with \(run.status)")
        importTimes.append(run.seconds)
        let pyTarget = temporaryDirectory("likes-python-import-\(size)")
        _ = FileManager.default.createFile(atPath: pyTarget + "/likes.json", contents: Data("{\"schema\":2,\"likes\":[]}".utf8))
        pyImportTimes.append(spawn([python, script, pyTarget + "/likes.json", "import", exportPath], environment: env).seconds)
    }
    f.importing = median(importTimes)
    f.pyImport = median(pyImportTimes)

    var like: [Double] = [], unlike: [Double] = [], list: [Double] = []
    var likeRSS: [Int] = [], unlikeRSS: [Int] = []
    for _ in 0..<2 { _ = spawn([shopy, "likes", "--format", "json"], environment: env) }
    for _ in 0..<runs {
        let a = spawn([shopy, "like", "--id", catalogID], environment: env)
        precondition(a.status == 0, "shopy like failed with \(a.status)")
        like.append(a.seconds)
        likeRSS.append(a.maxRSSKiB)
        let b = spawn([shopy, "unlike", "--id", catalogID], environment: env)
        precondition(b.status == 0, "shopy unlike failed with \(b.status)")
        unlike.append(b.seconds)
        unlikeRSS.append(b.maxRSSKiB)
    }
    for _ in 0..<slowRuns + 2 {
        let c = spawn([shopy, "likes", "--format", "json"], environment: env)
        precondition(c.status == 0, "shopy likes failed with \(c.status)")
        list.append(c.seconds)
    }
    f.like = median(like)
    f.unlike = median(unlike)
    f.list = median(list)
    f.likeRSS = likeRSS.max() ?? 0
    f.unlikeRSS = unlikeRSS.max() ?? 0

    // The same catalog search with this store and with an empty one, interleaved.
    let emptyHome = temporaryDirectory("likes-empty-\(size)")
    let searchArgs = [shopy, "search", "방충망", "--size", "20", "--format", "json"]
    var with: [Double] = [], without: [Double] = []
    for _ in 0..<3 {
        _ = spawn(searchArgs, environment: env)
        _ = spawn(searchArgs, environment: ["PATH": "/usr/bin:/bin", "SHOPY_HOME": emptyHome, "LANG": "C.UTF-8"])
    }
    for _ in 0..<runs {
        with.append(spawn(searchArgs, environment: env).seconds)
        without.append(spawn(searchArgs, environment: ["PATH": "/usr/bin:/bin", "SHOPY_HOME": emptyHome, "LANG": "C.UTF-8"]).seconds)
    }
    f.search = median(with)
    f.emptySearch = median(without)

    // The store copied as `cp -r` copies it (new inodes and times): the first search there puts
    // its index right (issue 24); the next ones must cost what they cost in the original.
    let copyHome = temporaryDirectory("likes-copy-\(size)")
    for name in (try? FileManager.default.contentsOfDirectory(atPath: home)) ?? [] {
        try? FileManager.default.copyItem(atPath: home + "/" + name, toPath: copyHome + "/" + name)
    }
    let copyEnv = ["PATH": "/usr/bin:/bin", "SHOPY_HOME": copyHome, "LANG": "C.UTF-8"]
    f.copiedFirst = spawn(searchArgs, environment: copyEnv).seconds
    var copied: [Double] = [], copiedEmpty: [Double] = []
    for _ in 0..<runs {
        copied.append(spawn(searchArgs, environment: copyEnv).seconds)
        copiedEmpty.append(spawn(searchArgs, environment: ["PATH": "/usr/bin:/bin", "SHOPY_HOME": emptyHome, "LANG": "C.UTF-8"]).seconds)
    }
    f.copiedSearch = median(copied)
    f.copiedEmpty = median(copiedEmpty)

    var pyLike: [Double] = [], pyUnlike: [Double] = [], pyList: [Double] = []
    for _ in 0..<slowRuns {
        pyLike.append(spawn([python, script, path, "like", catalogID], environment: env).seconds)
        pyUnlike.append(spawn([python, script, path, "unlike", catalogID], environment: env).seconds)
        pyList.append(spawn([python, script, path, "list"], environment: env).seconds)
    }
    f.pyLike = median(pyLike)
    f.pyUnlike = median(pyUnlike)
    f.pyList = median(pyList)

    if let bukuPython {
        let data = temporaryDirectory("likes-buku-\(size)")
        let db = data + "/buku/bookmarks.db"
        try? FileManager.default.createDirectory(atPath: data + "/buku", withIntermediateDirectories: true)
        _ = spawn([bukuPython, repository + "/Benchmarks/python/buku_bench.py", db, String(size)], environment: ["PATH": "/usr/bin:/bin"])
        let buku = (bukuPython as NSString).deletingLastPathComponent + "/buku"
        let bukuEnv = ["PATH": "/usr/bin:/bin", "XDG_DATA_HOME": data, "HOME": data, "LANG": "C.UTF-8"]
        var add: [Double] = [], delete: [Double] = []
        for _ in 0..<slowRuns + 2 {
            let a = spawn([buku, "--nostdin", "--np", "--tacit", "--offline", "-a", "https://shopping.example/products/bench-new", "--title", "bench"], environment: bukuEnv)
            add.append(a.seconds)
            let d = spawn([buku, "--nostdin", "--np", "--tacit", "-d", String(size + 1)], environment: bukuEnv)
            delete.append(d.seconds)
            if a.status != 0 || d.status != 0 { print("buku exited \(a.status)/\(d.status)") }
        }
        f.bukuAdd = median(add)
        f.bukuDelete = median(delete)
    }

    let size1 = (try? FileManager.default.attributesOfItem(atPath: home + "/likes.json")[.size] as? Int) ?? 0
    print(String(format: "### %@ likes (likes.json %.1f MB)", Money.grouped(size), Double(size1) / 1e6))
    func row(_ name: String, _ ours: Double, _ theirs: Double, _ extra: String = "") {
        print("  \(name.padding(toLength: 26, withPad: " ", startingAt: 0)) shopy \(ms(ours).padding(toLength: 10, withPad: " ", startingAt: 0)) python \(ms(theirs).padding(toLength: 11, withPad: " ", startingAt: 0)) ratio \(String(format: "%.3f", ours / theirs))×\(extra)")
    }
    let bukuAdd = f.bukuAdd.map { "   buku add \(ms($0))" } ?? ""
    let bukuDelete = f.bukuDelete.map { "   buku delete \(ms($0))" } ?? ""
    row("like ID", f.like, f.pyLike, bukuAdd + String(format: "   peak RSS %.1f MiB", Double(f.likeRSS) / 1024))
    row("unlike ID", f.unlike, f.pyUnlike, bukuDelete + String(format: "   peak RSS %.1f MiB", Double(f.unlikeRSS) / 1024))
    row("likes --format json", f.list, f.pyList)
    row("likes import (export)", f.importing, f.pyImport)
    print("  \("search 방충망 --size 20".padding(toLength: 26, withPad: " ", startingAt: 0)) shopy \(ms(f.search)) with the store, \(ms(f.emptySearch)) with none: \(String(format: "%.2f", f.search / f.emptySearch))×")
    print("  \("… in a copy (cp -r)".padding(toLength: 26, withPad: " ", startingAt: 0)) first \(ms(f.copiedFirst)), then \(ms(f.copiedSearch)) with the copy, \(ms(f.copiedEmpty)) with none: \(String(format: "%.2f", f.copiedSearch / f.copiedEmpty))×")
    return f
}
