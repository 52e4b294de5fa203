import Foundation
import ShopYCore

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
            let opened = Result { () throws(StoreError) -> (CatalogIndex?, MappedBytes?) in
                (try CatalogIndex.map(path: local.indexPath), try MappedBytes.map(path: local.itemsPath))
            }
            switch opened {
            case .success(let (mapped, file)):
                if let mapped, let file {
                    if !local.belongs(mapped, to: file) {
                        index.status = "stale"
                        index.problem = "it does not belong to catalog.json (built again at the next search)"
                    } else if mapped.count != records.records.count || local.encode(records.records, generation: records.generation).index
                        != Array(mapped.base.bindMemory(to: UInt8.self)) {
                        index.status = "mismatched"
                        index.problem = "it does not list catalog.json's items as they are (a search that reads the damage builds it again; --repair does now)"
                    } else {
                        index.entries = Plural.count(mapped.layout.keyCount, "key")
                    }
                }
            case .failure(let error):
                index.status = "mismatched"
                if case .damaged(_, let problem) = error { index.problem = problem } else { index.problem = error.message }
                index.problem? += " (built again from catalog.json at the next search; --repair does now)"
            }
            if repair && (index.status == "stale" || index.status == "mismatched") {
                let lock = try FileLock(path: local.lockPath)
                defer { lock.release() }
                let fresh = try local.load()
                try local.write(fresh.records, after: fresh.generation)
                index.actions.append("rebuilt")
                index.status = "ok"
            }
        }
        return [items, index]
    }
}
