/// Where a replay is: which events are due at a given moment, with pauses longer than the
/// idle limit shortened to it, a speed, pausing, and skipping the current pause. Pure: the
/// player passes the clock's readings (seconds) in.
public struct CastPlayback: Sendable {
    /// The replay's default idle limit: a pause in the recording plays as at most 3 seconds
    /// (asciinema's `idle_time_limit`); a cast's own header limit, when smaller, is used instead.
    public static let defaultIdleLimit = 3.0

    /// Each event's time on the replay's own timeline (pauses shortened, before the speed).
    public let times: [Double]
    public let events: [CastEvent]
    public let speed: Double
    /// The next event to play.
    public private(set) var next = 0
    /// The timeline's position when the clock read `anchor`; while paused, `anchor` is nil.
    private var position = 0.0
    private var anchor: Double?

    public init(events: [CastEvent], idleLimit: Double = CastPlayback.defaultIdleLimit, speed: Double = 1, startingAt now: Double) {
        self.events = events
        self.speed = speed > 0 && speed.isFinite ? speed : 1
        var times: [Double] = []
        times.reserveCapacity(events.count)
        var previous = 0.0
        var played = 0.0
        let limit = idleLimit > 0 ? idleLimit : Double.infinity
        for event in events {
            played += min(max(0, event.time - previous), limit)
            previous = event.time
            times.append(played)
        }
        self.times = times
        self.anchor = now
    }

    public var isFinished: Bool { next >= events.count }
    public var isPaused: Bool { anchor == nil }

    /// The timeline's position at `now`.
    public func position(at now: Double) -> Double {
        guard let anchor else { return position }
        return position + max(0, now - anchor) * speed
    }

    /// The events due by `now`, in order; each is returned once.
    public mutating func due(at now: Double) -> ArraySlice<CastEvent> {
        let reached = position(at: now)
        let first = next
        while next < events.count, times[next] <= reached { next += 1 }
        return events[first..<next]
    }

    /// Seconds of the clock until the next event is due; nil when paused or finished.
    public func secondsUntilNext(at now: Double) -> Double? {
        guard !isPaused, next < events.count else { return nil }
        return max(0, (times[next] - position(at: now)) / speed)
    }

    /// Pauses, or resumes where it was paused.
    public mutating func togglePause(at now: Double) {
        if anchor == nil {
            anchor = now
        } else {
            position = position(at: now)
            anchor = nil
        }
    }

    /// Skips the rest of the current pause: the next event is due now (also while paused,
    /// which steps one event).
    public mutating func skipIdle(at now: Double) {
        guard next < events.count else { return }
        position = max(position(at: now), times[next])
        if anchor != nil { anchor = now }
    }
}
