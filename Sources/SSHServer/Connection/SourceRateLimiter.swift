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
        var times = recentTimes(of: source, now: now)
        let admitted = times.count < limit
        if admitted { times.append(now) }
        recent[source] = times
        return admitted
    }

    /// Records one event from `source` at `now` (at most `limit` are kept); returns how many
    /// it has within the window, this one included.
    mutating func record(_ source: String, now: NIODeadline) -> Int {
        let times = Array((recentTimes(of: source, now: now) + [now]).suffix(limit))
        recent[source] = times
        return times.count
    }

    /// Whether `source` has `limit` events within the window before `now`.
    func isAtLimit(_ source: String, now: NIODeadline) -> Bool {
        let since = now - window
        return (recent[source]?.filter { $0 > since }.count ?? 0) >= limit
    }

    /// The times of `source`'s events within the window before `now`; once a window, the
    /// addresses with none left there are forgotten.
    private mutating func recentTimes(of source: String, now: NIODeadline) -> [NIODeadline] {
        let since = now - window
        if now - lastSweep > window {
            lastSweep = now
            recent = recent.filter { $0.value.contains { $0 > since } }
        }
        return recent[source, default: []].filter { $0 > since }
    }
}
