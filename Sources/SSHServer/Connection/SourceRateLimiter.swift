import NIOCore

/// Counts new connections per source address in a sliding window. Memory stays bounded:
/// addresses whose connections all fell out of the window are forgotten.
struct SourceRateLimiter {
    let limit: Int
    let window: TimeAmount
    private var recent: [String: [NIODeadline]] = [:]
    private var lastSweep = NIODeadline.uptimeNanoseconds(0)

    init(limit: Int, window: TimeAmount) {
        self.limit = limit
        self.window = window
    }

    /// Records a connection from `source` at `now`; false when it is over the limit (and then
    /// it is not recorded, so a flood does not extend its own ban).
    mutating func admit(_ source: String, now: NIODeadline) -> Bool {
        let since = now - window
        sweep(since: since, now: now)
        var times = recent[source, default: []].filter { $0 > since }
        guard times.count < limit else {
            recent[source] = times
            return false
        }
        times.append(now)
        recent[source] = times
        return true
    }

    /// Records one event from `source` at `now` (at most `limit` are kept); returns how many
    /// it has within the window, this one included.
    mutating func record(_ source: String, now: NIODeadline) -> Int {
        let since = now - window
        sweep(since: since, now: now)
        var times = recent[source, default: []].filter { $0 > since }
        times.append(now)
        if times.count > limit { times.removeFirst(times.count - limit) }
        recent[source] = times
        return times.count
    }

    /// Whether `source` has `limit` events within the window before `now`.
    func isAtLimit(_ source: String, now: NIODeadline) -> Bool {
        let since = now - window
        return (recent[source]?.filter { $0 > since }.count ?? 0) >= limit
    }

    private mutating func sweep(since: NIODeadline, now: NIODeadline) {
        guard now - lastSweep > window else { return }
        lastSweep = now
        recent = recent.filter { $0.value.contains { $0 > since } }
    }
}
