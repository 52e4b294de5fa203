import ShopYCore
import ShopYBase

/// `shopy completions SHELL`: the script on stdout, as it is.
public struct CompletionScriptPresenter: Presenter {
    public func present(_ script: String, context: Context) -> ExitCode {
        context.io.stdout.write(script)
        return .ok
    }
}
