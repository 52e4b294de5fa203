import ShopYBase

/// What `shopy catalog` does, as calls that return typed values (the command only renders).
public struct CatalogService: Sendable {
    public let local: LocalCatalog
    public let now: @Sendable () -> Int

    public init(local: LocalCatalog, now: @escaping @Sendable () -> Int = { Int(time(nil)) }) {
        self.local = local
        self.now = now
    }

    // MARK: - Import

    /// One input: its name for messages and origins, and its bytes.
    public struct Input: Sendable {
        public var name: String
        public var bytes: [UInt8]
        public init(name: String, bytes: [UInt8]) { self.name = name; self.bytes = bytes }
    }

    /// Parses every input first (a file that does not parse contributes nothing), then merges
    /// the rest in one commit: by productId, a later record replaces an earlier one and keeps
    /// its first-seen date.
    /// The items stay bytes of the inputs throughout (`CatalogRawRecords`): parsed as spans,
    /// merged, written and indexed from the same bytes.
    public func importItems(_ inputs: [Input]) throws -> CatalogImportReport {
        var report = CatalogImportReport()
        let store = CatalogByteStore()
        var batches: [Batch] = []
        for input in inputs {
            do {
                let parsed = try CatalogImportParsing.parseRaw(input.bytes, name: input.name, store: store)
                report.files.append(.init(name: input.name, format: parsed.format.rawValue, items: parsed.items.count))
                report.skipped += parsed.skipped.map { var s = $0; s.place = "\(input.name) \(s.place)"; return s }
                batches.append((CatalogService.origin(input.name), parsed.items))
            } catch {
                report.failures.append(error.description)
            }
        }
        guard batches.contains(where: { $0.items.count > 0 }) else {
            // Nothing to merge: the catalog is as it was, and the report says how many it holds.
            report.total = try local.part()?.index.count ?? 0
            return report
        }
        return try merge(batches, report: report, store: store)
    }

    static func origin(_ name: String) -> String {
        if name == "-" || name == "standard input" { return "stdin" }
        return String(name.split(separator: "/").last ?? Substring(name))
    }

    // MARK: - Recording

    /// Adds or refreshes the items of a listing from the naver source (`catalog.record on`),
    /// merged as an import is: the number of items added or updated.
    @discardableResult
    public func record(_ items: [WireItem]) throws -> Int {
        let store = CatalogByteStore()
        var batch = CatalogRawRecords(store: store, capacity: items.count)
        for item in items {
            guard let id = ProductID.usable(item.productId) else { continue }
            var item = item
            item.productId = id
            item.title = CatalogService.unbolded(item.title)
            batch.append(item.boundedForCatalog, firstSeen: nil)
        }
        guard batch.count > 0 else { return 0 }
        let report = try merge([("naver", batch)], report: CatalogImportReport(), store: store)
        return report.added + report.updated
    }

    /// The API bolds the query's terms in titles: the record keeps the title without them.
    static func unbolded(_ title: String) -> String {
        guard CatalogText.contains(title, "<b>") || CatalogText.contains(title, "</b>") else { return title }
        var bytes = Array(title.utf8)
        for tag in ["</b>", "<b>"] {
            let t = Array(tag.utf8)
            var out: [UInt8] = []
            var i = 0
            while i < bytes.count {
                if i + t.count <= bytes.count && bytes[i..<(i + t.count)].elementsEqual(t) { i += t.count; continue }
                out.append(bytes[i]); i += 1
            }
            bytes = out
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Summary, export, remove, clear

    /// What the catalog holds: its items (the embedded ones a local record does not replace,
    /// and the local ones), their top-level categories with counts (most items first, then by
    /// name), where the local items came from, and the local catalog's files.
    public func summary(recording: Bool) throws -> CatalogSummaryReport {
        var categories: [String: Int] = [:], origins: [String: Int] = [:]
        var count = 0
        let part = try local.part()
        if let part {
            if let scanned = scannedCounts(part) {
                count = part.index.count
                (categories, origins) = scanned
            } else {
                let records = try local.load().records
                count = records.count
                for record in records {
                    categories[CatalogService.categoryName(record.item.category1 ?? ""), default: 0] += 1
                    origins[record.origin.isEmpty ? "(unknown)" : record.origin, default: 0] += 1
                }
            }
        }
        let embedded = Catalog.embedded.parts[0]
        let replaced = part.map { Catalog(parts: [embedded, $0]).hidden[0] } ?? []
        for (ordinal, item) in embedded.items.enumerated() where !replaced.contains(ordinal) {
            categories[CatalogService.categoryName(item.category1 ?? ""), default: 0] += 1
        }
        func sorted(_ d: [String: Int]) -> [CatalogSummaryReport.Count] {
            d.map { .init(name: $0.key, count: $0.value) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.name < $1.name }
        }
        return CatalogSummaryReport(embedded: embedded.index.count - replaced.count, local: count,
                                    categories: sorted(categories), origins: sorted(origins),
                                    bytesOnDisk: local.sizeOnDisk(), path: local.itemsPath, recording: recording)
    }

    /// A top-level category as the summary names it: "(none)" for an item without one.
    static func categoryName(_ category1: String) -> String {
        category1.isEmpty ? "(none)" : category1
    }

    /// The local records as an import file (the same format as catalog.json, pretty enough to read).
    public func export() throws -> (bytes: [UInt8], count: Int) {
        let contents = try local.load()
        return (local.encode(contents.records, generation: 0).items, contents.records.count)
    }

    /// Removes the records with these ids; returns the ids that were not there.
    public func remove(_ ids: [String]) throws -> (removed: Int, missing: [String]) {
        try local.update { records in
            let wanted = Set(ids)
            let before = records.count
            let present = Set(records.map(\.item.productId))
            records.removeAll { wanted.contains($0.item.productId) }
            let missing = ids.filter { !present.contains($0) }
            return ((before - records.count, missing), records.count != before)
        }
    }

    /// Writes a backup of the local catalog, then empties it; nil backup when it was empty.
    public func clear() throws -> (removed: Int, backup: String?) {
        try local.update { records in
            guard !records.isEmpty else { return ((0, nil), false) }
            let backup = FileIO.timestampedPath(in: local.directory, prefix: "catalog-backup", at: Date(timeIntervalSince1970: Double(now())))
            try FileIO.atomicWrite(local.encode(records, generation: 0).items, to: backup)
            let count = records.count
            records.removeAll()
            return ((count, backup), true)
        }
    }
}

public struct CatalogImportReport: Sendable, Equatable {
    public struct Skip: Sendable, Equatable {
        public var place: String
        public var productId: String?
        public var reason: String
    }
    public struct File: Sendable, Equatable {
        public var name: String
        public var format: String
        public var items: Int
    }
    public var files: [File] = []
    public var failures: [String] = []
    public var added = 0
    public var updated = 0
    public var skipped: [Skip] = []
    public var total = 0
}

public struct CatalogSummaryReport: Sendable, Equatable {
    public struct Count: Sendable, Equatable {
        public var name: String
        public var count: Int
    }
    /// The embedded items searched (those a local record does not replace).
    public var embedded: Int
    public var local: Int
    /// Top-level categories of every item searched (embedded and local), most items first.
    public var categories: [Count]
    /// Where the local items came from (file names, `naver`, `stdin`), most items first.
    public var origins: [Count]
    public var bytesOnDisk: Int
    public var path: String
    public var recording: Bool
}

import Foundation
