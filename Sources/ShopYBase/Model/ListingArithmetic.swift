/// The numbers a listing prints (rank of each row, the footer's range, the last page, rank's
/// reach and web position), computed so that no value from an answer or argv can trap: sums
/// saturate, and counts that cannot be negative are held at zero.
///
/// Answers are checked first (`AnswerCheck`), so on real pages these are ordinary sums; the fuzz
/// target (Fuzz/) and the property tests drive them with extreme integers.
public enum ListingArithmetic {
    /// The rank of row `index` of a page starting at `start`.
    public static func rank(start: Int, index: Int) -> Int {
        Checked.sum(start, index)
    }

    /// First and last rank of `count` rows from `start` (the footer's `21–40`).
    public static func range(start: Int, count: Int) -> (first: Int, last: Int) {
        (start, Checked.last(from: start, count: max(0, count)))
    }

    /// The last page at `size` that the API can reach for `total` results (at least 1).
    public static func lastPage(total: Int, size: Int) -> Int {
        let reachable = max(1, min(total, SearchRequest.maxRank))
        return (reachable - 1) / max(1, size) + 1
    }

    /// How deep a rank scan reached: the depth asked, unless fewer results exist; never negative.
    public static func reach(depth: Int, total: Int) -> Int {
        max(0, min(depth, total))
    }

    /// Page and position of `rank` on Naver's 40-a-page web listing (rank 1 is page 1, position 1).
    public static func webPlace(rank: Int) -> (page: Int, position: Int) {
        let zeroBased = max(0, Checked.sum(rank, -1))
        return (zeroBased / 40 + 1, zeroBased % 40 + 1)
    }
}
