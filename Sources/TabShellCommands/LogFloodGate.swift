/// What keeps a flood from erasing the log: each message (its text, without its fields) is
/// written at most `burst` times in a window of `windowSeconds`; past that it is counted, and
/// when the window is over one line says how many more there were. 8,802 wrong watch codes in
/// 50 s are 10 lines and `"refused: launcher" and 8,792 more like it in the 60 s from …`, not
/// 8,802 lines rotating out everything before them.
///
/// The bound is on messages, not on who sent them: the texts are the program's own (what varies
/// is in the fields), so a flood of any mix writes at most `burst + 1` lines per message kind
/// per window, however many connections or addresses it comes from.
public struct LogFloodGate: Sendable {
    public static let windowSeconds = 60.0
    public static let burst = 10
    /// Messages followed at once; a message past this many is written unlimited (the program
    /// has far fewer kinds, so only a message quoting outside text could get here).
    public static let maximumMessages = 512

    /// A window that is over and had lines left out: the line that counts them.
    public struct Summary: Equatable, Sendable {
        public let message: String
        public let omitted: Int
        /// When the window began (seconds since 1970).
        public let since: Double
        public let isSecurityEvent: Bool
    }

    private struct Window {
        let start: Double
        var written = 1
        var omitted = 0
        let isSecurityEvent: Bool
    }

    private var windows: [String: Window] = [:]
    /// The earliest end of a window: before it nothing needs sweeping.
    private var nextEnd = Double.infinity

    public init() {}

    /// Whether `message` is written now, and the summaries of windows that ended by `now`
    /// (written first, oldest first).
    public mutating func admit(_ message: String, isSecurityEvent: Bool, at now: Double) -> (write: Bool, summaries: [Summary]) {
        let summaries = now >= nextEnd ? sweep(at: now) : []
        if var window = windows[message] {
            let admitted = window.written < Self.burst
            if admitted { window.written += 1 } else { window.omitted += 1 }
            windows[message] = window
            return (admitted, summaries)
        }
        if windows.count < Self.maximumMessages {
            windows[message] = Window(start: now, isSecurityEvent: isSecurityEvent)
            nextEnd = min(nextEnd, now + Self.windowSeconds)
        }
        return (true, summaries)
    }

    /// Every window still open with lines left out (the program is ending: nothing after it
    /// would bring their summaries out).
    public mutating func drain() -> [Summary] {
        sweep(at: .infinity)
    }

    private mutating func sweep(at now: Double) -> [Summary] {
        var summaries: [Summary] = []
        nextEnd = .infinity
        for (message, window) in windows {
            if window.start + Self.windowSeconds <= now {
                windows[message] = nil
                if window.omitted > 0 {
                    summaries.append(Summary(message: message, omitted: window.omitted, since: window.start, isSecurityEvent: window.isSecurityEvent))
                }
            } else {
                nextEnd = min(nextEnd, window.start + Self.windowSeconds)
            }
        }
        return summaries.sorted { ($0.since, $0.message) < ($1.since, $1.message) }
    }

    // MARK: - Security events

    /// The messages kept apart in the security log as well (the SSH server's: authentication,
    /// revocation, limits), by how they begin; `LogFloodTests` checks each still begins a message
    /// the server logs. A flood of anything else never rotates them out.
    public static let securityPrefixes = [
        "authenticated", "authentication refused", "key refused", "key revoked", "authorized keys", "refused: the key",
        "closing: the key", "closing: too many wrong guesses", "refused connection",
    ]

    public static func isSecurityEvent(_ message: String) -> Bool {
        securityPrefixes.contains { message.hasPrefix($0) } || message.contains("limit reached")
    }
}
