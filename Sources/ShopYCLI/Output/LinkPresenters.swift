import ShopYCore
import ShopYBase

/// `shopy open`: which opener took each link (a notice); a link no opener took is printed on
/// stdout (the command's output then), and shopy says so.
public struct OpenPresenter: Presenter {
    public func present(_ opened: [(link: String, openedBy: String?)], context: Context) -> ExitCode {
        for (link, opener) in opened { Self.show(link, openedBy: opener, context: context) }
        return .ok
    }

    /// One link's outcome, as `open` shows it (the widget's and browse's open say the same).
    static func show(_ link: String, openedBy opener: String?, context: Context) {
        if let opener {
            context.diagnostics.notice("opened with \(opener): \(link)")
        } else {
            context.io.stdout.line(link)
            context.diagnostics.notice("no browser opener found ($BROWSER, xdg-open, open, wslview); the link is printed above")
        }
    }
}

/// `shopy copy`: which clipboard tool took the link (a notice); without one, on a terminal,
/// OSC 52; else the link on stdout and exit 69.
public struct CopyPresenter: Presenter {
    public func present(_ copied: (link: String, copiedBy: String?), context: Context) -> ExitCode {
        let io = context.io
        let link = copied.link
        if let tool = copied.copiedBy {
            context.diagnostics.notice("copied with \(tool): \(link)")
            return .ok
        }
        if io.stderrIsTerminal || io.stdoutIsTerminal {
            let sink = io.stderrIsTerminal ? io.stderr : io.stdout
            sink.write(Clipboards.osc52(link))
            sink.flush()
            context.diagnostics.notice("sent to the terminal's clipboard with OSC 52 (if the terminal allows it): \(link)")
            return .ok
        }
        io.stdout.line(link)
        return ShopY.report(CopyError(), io: io)
    }
}
