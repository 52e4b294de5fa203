import ShopYCore
import ShopYBase

/// Renders one result type in every format its command accepts; it prints and returns the
/// exit code, and does no work of its own (no store, no network).
public protocol Presenter: Sendable {
    associatedtype Result: Sendable
    func present(_ result: Result, context: Context) -> ExitCode
}

/// A command in the shape every command takes: `init` validates, `execute` does the work and
/// returns a typed result without printing, `presenter` renders it. `run` is only the two in
/// a row, so another front end (browse, the widget) calls `execute` and shows the result its way.
public protocol ResultCommand: Command {
    associatedtype Output: Presenter
    func execute(_ context: Context) async throws -> Output.Result
    var presenter: Output { get }
}

extension ResultCommand {
    public func run(_ context: Context) async throws -> ExitCode {
        presenter.present(try await execute(context), context: context)
    }
}
