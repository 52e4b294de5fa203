import Foundation
import ShopYCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `shopy catalog`: what the offline catalog holds; its import, export, remove and clear.
public struct CatalogCommand: Command {
    public static let spec = CommandSpec(
        name: "catalog",
        abstract: "Show the offline catalog; import, export, remove or clear local items.",
        discussion: "Searches on the catalog source cover the embedded items and the local catalog in SHOPY_HOME (catalog.json with its index catalog.index). 'shopy config set catalog.record on' adds what the naver source lists.",
        options: [json.spec],
        examples: ["shopy catalog", "shopy catalog import saved-answers.json more.csv", "curl … | shopy catalog import -",
                   "shopy catalog export catalog-backup.json", "shopy catalog remove 11124150101", "shopy catalog clear --yes"])

    public static var subcommands: [any Command.Type] {
        [CatalogImportCommand.self, CatalogExportCommand.self, CatalogRemoveCommand.self, CatalogClearCommand.self]
    }

    /// The summary as JSON (catalog has no other format, so no --format).
    static let json = Option.flag("json", help: "Print the summary as JSON.")

    public var json: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        json = parsed[Self.json]
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let report = try CatalogSupport.service(context).summary(recording: CatalogRecording.isOn(context.io, store: context.store))
        CatalogPresenter.summary(report, json: json, io: context.io)
        return .ok
    }
}

/// `shopy catalog import FILE…|-`
public struct CatalogImportCommand: Command {
    public static let spec = CommandSpec(
        name: "import",
        abstract: "Add items from Naver answers, JSON arrays, JSON lines or CSV (the contract's field names).",
        arguments: [ArgumentSpec("file", help: "Files to import; '-' reads stdin.", variadic: true)],
        examples: ["shopy catalog import answers/*.json", "shopy catalog import items.csv", "shopy catalog import - < items.jsonl"])

    public var files: [String]

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard !parsed.positionals.isEmpty else { throw UsageError("catalog import needs at least one FILE (or - for stdin)", hint: "e.g. shopy catalog import answer.json") }
        guard parsed.positionals.filter({ $0 == "-" }).count <= 1 else { throw UsageError("stdin ('-') can be imported once") }
        files = parsed.positionals
    }

    public func run(_ context: Context) async throws -> ExitCode {
        var inputs: [CatalogService.Input] = []
        for file in files {
            if file == "-" {
                inputs.append(.init(name: "stdin", bytes: try context.io.stdin()))
            } else {
                let path = file.hasPrefix("/") ? file : context.io.currentDirectory + "/" + file
                guard let bytes = try FileIO.read(path) else { throw StoreError.io(path: file, operation: "read", errno: ENOENT) }
                inputs.append(.init(name: file, bytes: bytes))
            }
        }
        let report = try CatalogSupport.service(context).importItems(inputs)
        CatalogPresenter.imported(report, context: context)
        return report.failures.isEmpty ? .ok : .dataError
    }
}

/// `shopy catalog export [FILE]`
public struct CatalogExportCommand: Command {
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

    public func run(_ context: Context) async throws -> ExitCode {
        let (bytes, count) = try CatalogSupport.service(context).export()
        guard let file else {
            context.io.stdout.write(bytes: bytes)
            return .ok
        }
        let path = file.hasPrefix("/") ? file : context.io.currentDirectory + "/" + file
        var info = stat()
        if !force && stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_size > 0 {
            throw UsageError("'\(Sanitizer.clean(file))' exists; nothing was written", hint: "shopy catalog export \(Sanitizer.clean(file)) --force replaces it")
        }
        try FileIO.writeExport(bytes, to: path)
        context.diagnostics.notice("exported \(Money.grouped(count)) item\(count == 1 ? "" : "s") to \(file)")
        return .ok
    }
}

/// `shopy catalog remove ID…`
public struct CatalogRemoveCommand: Command {
    public static let spec = CommandSpec(
        name: "remove",
        abstract: "Remove local items by productId (embedded items cannot be removed).",
        arguments: [ArgumentSpec("id", help: "productIds to remove.", variadic: true)],
        examples: ["shopy catalog remove 11124150101 80285861246"])

    public var ids: [String]

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard !parsed.positionals.isEmpty else { throw UsageError("catalog remove needs at least one productId") }
        ids = try parsed.positionals.map { raw throws(UsageError) in
            guard let id = ProductID.usable(raw) else { throw UsageError("'\(Sanitizer.clean(raw))' is not a productId (1 to \(ProductID.maxLength) digits)") }
            return id
        }
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let (removed, missing) = try CatalogSupport.service(context).remove(ids)
        context.io.stdout.line("removed \(Money.grouped(removed)) item\(removed == 1 ? "" : "s") from the local catalog")
        for id in missing { context.io.stderr.line("shopy: \(id) is not in the local catalog") }
        return missing.isEmpty ? .ok : .failure
    }
}

/// `shopy catalog clear --yes`
public struct CatalogClearCommand: Command {
    public static let spec = CommandSpec(
        name: "clear",
        abstract: "Remove every local item, after writing a backup file.",
        options: [yes.spec],
        examples: ["shopy catalog clear --yes"])

    static let yes = Option.flag("yes", help: "Confirm. Without it nothing is removed.")

    public var confirmed: Bool

    public init(_ parsed: ParsedArguments) throws(UsageError) {
        guard parsed.positionals.isEmpty else { throw UsageError("catalog clear takes no arguments") }
        guard parsed[Self.yes] else { throw UsageError("clearing the local catalog needs --yes", hint: "shopy catalog clear --yes (a backup file is written first)") }
        confirmed = true
    }

    public func run(_ context: Context) async throws -> ExitCode {
        let (removed, backup) = try CatalogSupport.service(context).clear()
        if let backup {
            context.io.stdout.line("cleared \(Money.grouped(removed)) item\(removed == 1 ? "" : "s"); backup: \(backup)")
            context.io.stdout.line("restore with: shopy catalog import \(backup)")
        } else {
            context.io.stdout.line("the local catalog is empty")
        }
        return .ok
    }
}

enum CatalogSupport {
    static func service(_ context: Context) -> CatalogService {
        let io = context.io
        return CatalogService(local: LocalCatalog(environment: io.environment), now: { Int(io.now().timeIntervalSince1970) })
    }
}
