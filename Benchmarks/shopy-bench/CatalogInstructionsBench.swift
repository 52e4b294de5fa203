// The catalog search at 340 items in instructions (issue 17): callgrind's whole-run count of
// `shopy search 방충망 --source catalog --format json` beside the Python `-S -E` reference's.
// Instructions barely move with the machine's load, where the timed ratio does (python's time
// on this shared 2-core machine ranges 25–57 ms from one run to the next).
import Foundation
import ShopYCore
import ShopYBase

func catalogInstructions() {
    guard let shim = valgrindShim() else { print("  instructions: no C compiler for the valgrind shim; skipped"); return }
    let home = temporaryDirectory("catalog-instructions")
    defer { try? FileManager.default.removeItem(atPath: home) }
    // Valgrind cannot run a binary with its debug info: count a stripped copy.
    let stripped = temporaryDirectory("catalog-stripped") + "/shopy"
    guard (try? FileManager.default.copyItem(atPath: shopy, toPath: stripped)) != nil,
          spawn(["/usr/bin/env", "strip", "-g", stripped], environment: ["PATH": "/usr/bin:/bin"]).status == 0 else { return }
    let env = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "SHOPY_HOME": home, "LD_PRELOAD": shim]
    let args = [stripped, "search", "방충망", "--source", "catalog", "--format", "json"]
    // The first run in an empty SHOPY_HOME writes state.json; the second is a search as users make them.
    guard let fresh = startupInstructions(args, environment: env), let warm = startupInstructions(args, environment: env),
          let reference = startupInstructions([python, "-S", "-E", repository + "/Benchmarks/python/catalog_search.py",
                                               repository + "/Fixtures/recorded-items.json", "방충망", "20"],
                                              environment: ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"]) else {
        print("  instructions: no valgrind; skipped")
        return
    }
    print("  search at 340 items, callgrind whole run: shopy \(Money.grouped(warm)) (first in an empty SHOPY_HOME \(Money.grouped(fresh)))  "
          + "python -S -E \(Money.grouped(reference))  ratio \(String(format: "%.3f", Double(warm) / Double(reference)))× instructions")
}
