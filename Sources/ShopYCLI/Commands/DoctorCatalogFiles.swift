import Foundation
import ShopYCore
import ShopYBase
import ShopYCatalog

/// `doctor` on the local catalog: catalog.json (the records, strictly decoded) and
/// catalog.index (whether it belongs to catalog.json and reads whole). With --repair a damaged
/// catalog.json is moved aside (kept) and a stale or damaged index rebuilt.
extension DoctorCommand {
    func catalogReports(directory: String, now: Date) throws -> [FileReport] {
        let local = LocalCatalog(directory: directory)
        var items = FileReport(name: "catalog.json", path: local.itemsPath, status: "ok", mode: Self.lmode(of: local.itemsPath))
        var index = FileReport(name: "catalog.index", path: local.indexPath, status: "ok", mode: Self.lmode(of: local.indexPath))
        guard items.mode != nil else {
            items.status = "missing"
            return index.mode == nil ? [] : [items, index]
        }
        if let problem = Self.unsafeProblem(local.itemsPath) {
            items.status = "unsafe"
            items.problem = problem
            return [items, index]
        }
        let loaded = Result { () throws(StoreError) -> LocalCatalog.Contents in try local.load() }
        var records: LocalCatalog.Contents?
        switch loaded {
        case .success(let contents):
            records = contents
            let count = contents.records.count
            items.entries = Plural.count(count, "item")
        case .failure(let error):
            items.record(error)
            if repair && items.status != "unsafe" {
                items.actions.append(try Self.moveAside(local.itemsPath, prefix: "catalog.json.damaged", in: directory, now: now))
            }
        }
        if index.mode == nil {
            index.status = records == nil ? "missing" : "stale"
            index.problem = records == nil ? nil : "missing (built again at the next search)"
        } else if let problem = Self.unsafeProblem(local.indexPath) {
            index.status = "unsafe"
            index.problem = problem
        } else if let records {
            switch local.indexState(for: records) {
            case .missing:
                index.status = "stale"
                index.problem = "missing (built again at the next search)"
            case .stale:
                index.status = "stale"
                index.problem = "it does not belong to catalog.json (built again at the next search)"
            case .mismatched(let problem):
                index.status = "mismatched"
                index.problem = problem + " (built again from catalog.json when a search finds it; --repair does now)"
            case .ok(let keys):
                index.entries = Plural.count(keys, "key")
            }
            if repair && (index.status == "stale" || index.status == "mismatched") {
                try local.rebuildIndex()
                index.actions.append("rebuilt")
                index.status = "ok"
            }
        }
        return [items, index]
    }
}
