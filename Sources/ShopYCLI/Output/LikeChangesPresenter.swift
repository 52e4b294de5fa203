import ShopYCore
import ShopYBase

/// What `like` and `unlike` did, a line a target (`liked: 80285861246  일체형 자석 … (9,900원)`).
/// They are notices, on stderr: the command's work is the change, not output, so `--quiet`
/// leaves them out and a script's stdout stays empty.
public struct LikeChangesPresenter: Presenter {
    public func present(_ changes: [LikeChanges.Change], context: Context) -> ExitCode {
        for change in changes { context.diagnostics.notice(Self.line(change)) }
        return .ok
    }

    /// Every id and title in it is cleaned (ids come from the network).
    static func line(_ change: LikeChanges.Change) -> TerminalText {
        let what = change.product.map(LikeSupport.describe) ?? "\(change.id)"
        switch change.kind {
        case .liked: return "liked: " + what
        case .alreadyLiked: return "already liked: " + what
        case .unliked: return "unliked: " + what
        case .notLiked: return "not liked: " + what
        }
    }
}
