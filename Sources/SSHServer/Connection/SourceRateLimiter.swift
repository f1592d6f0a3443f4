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

    private mutating func sweep(since: NIODeadline, now: NIODeadline) {
        guard now - lastSweep > window else { return }
        lastSweep = now
        recent = recent.filter { $0.value.contains { $0 > since } }
    }
}
