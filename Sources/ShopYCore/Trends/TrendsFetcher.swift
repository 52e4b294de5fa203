/// Runs a comparison against DataLab: the anchor plan's requests side by side, the answers
/// stitched onto one scale, a second anchor where the first has no clicks.
public struct TrendsFetcher: Sendable {
    public var client: DataLabClient
    public var timeout: Double
    public var trace: Tracer
    /// Requests in flight at once.
    public var concurrency: Int = 4

    public init(client: DataLabClient, timeout: Double, trace: Tracer) {
        self.client = client
        self.timeout = timeout
        self.trace = trace
    }

    public func run(_ comparison: TrendsComparison) async throws(DataLabError) -> TrendsResult {
        let periods = comparison.range.periods
        let deadline = client.clock.deadline(after: timeout)
        if let by = comparison.by {
            trace("trends: \(comparison.series[0].name) by \(by.rawValue): 1 request")
            let answer = try await client.send(comparison.breakdownRequest(by), periods: periods, deadline: deadline, timeout: timeout, label: "1/1")
            let rows = answer.series.map { TrendsResult.Row(series: comparison.series[0], group: $0.group, values: $0.values) }
            return TrendsResult(comparison: comparison, periods: periods, rows: normalize(rows), requests: 1)
        }

        let names = comparison.series.map { "'\($0.name)'" }
        let groups = AnchorPlan.groups(count: comparison.series.count, limit: comparison.limit)
        if groups.count == 1 {
            trace("trends: \(comparison.kind.counted(comparison.series.count)) in 1 request")
        } else {
            trace("trends: \(comparison.series.count) \(comparison.kind.rawValue) in \(groups.count) requests of at most \(comparison.limit), each anchored by \(names[groups[0][0]]) so that all land on one scale")
        }
        var requests = groups.count
        let answers = try await send(groups, comparison: comparison, periods: periods, deadline: deadline, first: 1, total: groups.count)
        // The scale is the first answer with any clicks (an answer of zeros is 0 on every scale).
        let reference = answers.firstIndex { $0.contains { $0.contains { $0 > 0 } } } ?? 0
        var stitcher = Stitcher(count: comparison.series.count)
        stitcher.setReference(series: groups[reference], answer: answers[reference])
        for (k, group) in groups.enumerated() where k != reference {
            stitcher.place(series: group, answer: answers[k], anchor: group[0])
        }
        let unplaced = stitcher.unplaced
        if !unplaced.isEmpty {
            let anchor = groups[0][0]
            if let second = stitcher.strongest(excluding: [anchor]) {
                trace("trends: the anchor \(names[anchor]) has no clicks where \(unplaced.map { names[$0] }.joined(separator: ", ")) were asked; asking again with \(names[second]) as the anchor")
                let retryGroups = stride(from: 0, to: unplaced.count, by: comparison.limit - 1).map { start in
                    [second] + unplaced[start..<min(start + comparison.limit - 1, unplaced.count)]
                }
                let retried = try await send(retryGroups, comparison: comparison, periods: periods, deadline: deadline,
                                             first: requests + 1, total: requests + retryGroups.count)
                requests += retryGroups.count
                for (k, group) in retryGroups.enumerated() { stitcher.place(series: group, answer: retried[k], anchor: second) }
            }
        }
        let left = stitcher.unplaced.map { comparison.series[$0] }
        if !left.isEmpty {
            trace("trends: cannot place \(left.map { "'\($0.name)'" }.joined(separator: ", ")): no anchor with clicks in their answer")
        }
        let normalized = try stitcher.checkedNormalized()
        let rows = comparison.series.indices.compactMap { i in
            normalized[i].map { TrendsResult.Row(series: comparison.series[i], group: nil, values: $0) }
        }
        trace("trends: \(requests) request\(requests == 1 ? "" : "s") made")
        return TrendsResult(comparison: comparison, periods: periods, rows: rows, requests: requests, unplaced: left)
    }

    /// A breakdown answer is one request's: already on one scale, but a server may not put 100 in it.
    func normalize(_ rows: [TrendsResult.Row]) -> [TrendsResult.Row] {
        var stitcher = Stitcher(count: rows.count)
        stitcher.setReference(series: Array(rows.indices), answer: rows.map(\.values))
        let values = stitcher.normalized()
        return rows.enumerated().map { i, row in TrendsResult.Row(series: row.series, group: row.group, values: values[i] ?? row.values) }
    }

    /// Sends one request per group, at most `concurrency` at a time; answers in group order.
    func send(_ groups: [[Int]], comparison: TrendsComparison, periods: [CalendarDate], deadline: ContinuousClock.Instant,
              first: Int, total: Int) async throws(DataLabError) -> [[[Double]]] {
        for (k, group) in groups.enumerated() {
            let members = group.map { i in "'\(comparison.series[i].name)'" + (i == group[0] && total > 1 ? " (anchor)" : "") }
            trace("request \(k + first)/\(total): \(members.joined(separator: ", "))")
        }
        let client = self.client, timeout = self.timeout, limit = max(1, concurrency)
        do {
            return try await withThrowingTaskGroup(of: (Int, [[Double]]).self) { tasks in
                var results = Array(repeating: [[Double]](), count: groups.count)
                var next = 0
                func launch(_ k: Int) {
                    let request = comparison.request(for: groups[k])
                    tasks.addTask {
                        let answer = try await client.send(request, periods: periods, deadline: deadline, timeout: timeout, label: "\(k + first)/\(total)")
                        return (k, answer.series.map(\.values))
                    }
                }
                while next < min(limit, groups.count) {
                    launch(next)
                    next += 1
                }
                while let (k, values) = try await tasks.next() {
                    results[k] = values
                    if next < groups.count {
                        launch(next)
                        next += 1
                    }
                }
                return results
            }
        } catch let error as DataLabError {
            throw error
        } catch {
            throw .timeout(seconds: timeout, host: client.host)
        }
    }
}
