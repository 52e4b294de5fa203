import ShopYCore
import ShopYBase

/// One `shopy status` report as text, JSON or a JSONL line; 69 unless online or the path is ok.
public struct StatusPresenter: Presenter {
    public var format: StatusCommand.StatusFormat

    public func present(_ report: StatusReport, context: Context) -> ExitCode {
        let io = context.io
        switch format {
        case .text:
            io.stdout.line(report.text(color: io.useColor))
        case .json:
            io.writeJSON(report.json())
        case .jsonl:
            io.stdout.line(JSONWriter.string(report.jsonLine(time: io.now(), event: "initial", changes: [])))
        }
        return report.state == .online || report.state == .pathOK ? .ok : .unavailable
    }
}
