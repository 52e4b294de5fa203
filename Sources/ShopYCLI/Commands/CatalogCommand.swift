import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ShopYBase
import ShopYCatalog

/// `shopy catalog`: what the offline catalog holds; its import, export, remove and clear.
public struct CatalogCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "catalog",
        abstract: "Show the offline catalog; import, export, remove or clear local items.",
        discussion: "Searches on the catalog source cover the embedded items and the local catalog in SHOPY_HOME (catalog.json with its index catalog.index). 'shopy config set catalog.record on' adds what the naver source lists. The summary lists the top-level categories of every item searched with their counts, most items first; TSV and CSV list only those (category, count), JSON the whole summary.",
        options: formats.specs,
        examples: ["shopy catalog", "shopy catalog --format tsv", "shopy catalog import saved-answers.json more.csv", "curl … | shopy catalog import -",
                   "shopy catalog export catalog-backup.json", "shopy catalog remove 11124150101", "shopy catalog clear --yes"])

    public static var subcommands: [any Command.Type] {
        [CatalogImportCommand.self, CatalogExportCommand.self, CatalogRemoveCommand.self, CatalogClearCommand.self]
    }

    static let formats = FormatOptions(accepting: [OutputFormat.table, .tsv, .csv, .json], notes: [.table: "default"])

    public var format: OutputFormat?

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        format = try Self.formats.read(parsed)
    }

    public func execute(_ context: Context) async throws -> CatalogSummaryReport {
        try CatalogSupport.service(context).summary(recording: CatalogRecording.isOn(context.io, store: context.store))
    }

    public var presenter: CatalogSummaryPresenter { CatalogSummaryPresenter(format: format ?? .table) }
}

/// `shopy catalog import FILE…|-`
public struct CatalogImportCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "import",
        abstract: "Add items from Naver answers, JSON arrays, JSON lines or CSV (the contract's field names).",
        arguments: [ArgumentSpec("file", help: "Files to import (regular files of at most \(FileIO.importLimit >> 20) MiB; a FIFO or device is refused); '-' reads stdin.", variadic: true)],
        examples: ["shopy catalog import answers/*.json", "shopy catalog import items.csv", "shopy catalog import - < items.jsonl"])

    public var files: [String]

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard !parsed.positionals.isEmpty else { throw UsageError("catalog import needs at least one FILE (or - for stdin)", hint: "e.g. shopy catalog import answer.json") }
        guard parsed.positionals.filter({ $0 == "-" }).count <= 1 else { throw UsageError("stdin ('-') can be imported once") }
        files = parsed.positionals
    }

    public func execute(_ context: Context) async throws -> CatalogImportReport {
        var inputs: [CatalogService.Input] = []
        for file in files {
            if file == "-" {
                inputs.append(.init(name: "stdin", bytes: try context.io.stdin()))
            } else {
                let path = file.hasPrefix("/") ? file : context.io.currentDirectory + "/" + file
                // Bounded, and never blocking on open: a FIFO or a device is refused (74).
                guard let bytes = try FileIO.readImport(path, shown: file, command: "shopy catalog import") else {
                    throw StoreError.io(path: file, operation: "read", errno: ENOENT)
                }
                inputs.append(.init(name: file, bytes: bytes))
            }
        }
        return try CatalogSupport.service(context).importItems(inputs)
    }

    public var presenter: CatalogImportPresenter { CatalogImportPresenter() }
}

/// `shopy catalog export [FILE]`
public struct CatalogExportCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "export",
        abstract: "Write the local catalog as JSON to FILE, or to stdout (importable, and accepted by shopy-emulator --items).",
        arguments: [ArgumentSpec("file", help: "Where to write (replaced atomically, mode 0600). Default or '-': stdout.", optional: true)],
        options: [force.spec],
        examples: ["shopy catalog export > catalog.json", "shopy catalog export backup.json --force"])

    static let force = Option.flag("force", help: "Replace FILE when it exists and is not empty.")

    public var file: String?
    public var force: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.count <= 1 else { throw UsageError("catalog export takes one FILE at most") }
        file = parsed.positionals.first.flatMap { $0 == "-" ? nil : $0 }
        force = parsed[Self.force]
    }

    /// The export on stdout (`bytes`), or where it was written (`file`, with its item count).
    public struct Exported: Sendable {
        public var bytes: [UInt8]?
        public var file: String?
        public var count: Int
    }

    public func execute(_ context: Context) async throws -> Exported {
        let (bytes, count) = try CatalogSupport.service(context).export()
        guard let file else { return Exported(bytes: bytes, file: nil, count: count) }
        let path = file.hasPrefix("/") ? file : context.io.currentDirectory + "/" + file
        var info = stat()
        if !force && stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_size > 0 {
            throw UsageError("'\(Sanitizer.clean(file))' exists; nothing was written", hint: "shopy catalog export \(Sanitizer.clean(file)) --force replaces it")
        }
        try FileIO.writeExport(bytes, to: path)
        return Exported(bytes: nil, file: file, count: count)
    }

    public var presenter: CatalogExportPresenter { CatalogExportPresenter() }
}

/// `shopy catalog remove ID…`
public struct CatalogRemoveCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "remove",
        abstract: "Remove local items by productId (embedded items cannot be removed).",
        arguments: [ArgumentSpec("id", help: "productIds to remove.", variadic: true)],
        examples: ["shopy catalog remove 11124150101 80285861246"])

    public var ids: [String]

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard !parsed.positionals.isEmpty else { throw UsageError("catalog remove needs at least one productId") }
        ids = try parsed.positionals.map { raw throws(UsageError) in
            guard let id = ProductID.usable(raw) else { throw UsageError("'\(Sanitizer.clean(raw))' is not a productId (\(ProductID.described))") }
            return id
        }
    }

    public func execute(_ context: Context) async throws -> (removed: Int, missing: [String]) {
        try CatalogSupport.service(context).remove(ids)
    }

    public var presenter: CatalogRemovePresenter { CatalogRemovePresenter() }
}

/// `shopy catalog clear --yes`
public struct CatalogClearCommand: ResultCommand {
    public static let spec = CommandSpec(
        name: "clear",
        abstract: "Remove every local item, after writing a backup file.",
        options: [yes.spec],
        examples: ["shopy catalog clear --yes"])

    static let yes = SharedOptions.yes

    public var confirmed: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else { throw UsageError("catalog clear takes no arguments") }
        guard parsed[Self.yes] else { throw UsageError("clearing the local catalog needs --yes", hint: "shopy catalog clear --yes (a backup file is written first)") }
        confirmed = true
    }

    public func execute(_ context: Context) async throws -> (removed: Int, backup: String?) {
        try CatalogSupport.service(context).clear()
    }

    public var presenter: CatalogClearPresenter { CatalogClearPresenter() }
}

enum CatalogSupport {
    static func service(_ context: Context) -> CatalogService {
        let io = context.io
        return CatalogService(local: LocalCatalog(environment: io.environment), now: { Int(io.now().timeIntervalSince1970) })
    }
}
