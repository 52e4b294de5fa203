/// Whether a decoded 200 answer is one the contract allows for the request that was sent.
///
/// The API echoes `start`, reports `display` as the number of items it returned (at most the
/// 100 a request may ask for) and a `total` that is never negative. An answer that says anything
/// else is bad data (exit 65, naming what was wrong), not something to rank or store.
public enum AnswerCheck {
    /// Nil when the answer fits the request; else what was wrong, for the error line.
    public static func problem(in answer: WireSearchResponse, for request: SearchRequest) -> String? {
        if answer.total < 0 {
            return "\"total\" is \(answer.total), a negative count"
        }
        if answer.start != request.start {
            return "\"start\" is \(answer.start), but start \(request.start) was asked for"
        }
        if answer.display < 0 || answer.display > SearchRequest.maxDisplay {
            return "\"display\" is \(answer.display), outside 0–\(SearchRequest.maxDisplay)"
        }
        if answer.display != answer.items.count {
            return "\"display\" is \(answer.display), but \(answer.items.count) item\(answer.items.count == 1 ? "" : "s") came"
        }
        return nil
    }
}
