import CoreMetrics
import SSHServer

/// Sessions counted by what they run (swift-metrics' API; a no-op unless `serve --metrics`
/// booted a backend). The mode is one of a fixed list, read from the request the launcher
/// accepted: never a name, a code or an argument.
public enum ServeSessionMetrics {
    public static let active = "tabshell_sessions_active"
    public static let started = "tabshell_sessions_started_total"
    public static let ended = "tabshell_sessions_ended_total"

    /// What a session runs.
    public enum Mode: String, CaseIterable, Sendable {
        /// The app on a terminal (a shell request).
        case app
        /// An allowed command (`inbox add`, `history export`, `photos add`…).
        case command
        /// `present`: the app, shared under a watch code.
        case present
        /// `watch CODE`.
        case watch
        /// `mcp` (an agent's door).
        case mcp

        /// The mode of a request the launcher decided to run.
        init(_ request: SSHSessionRequest) {
            guard let words = request.commandWords, !words.isEmpty, case .success(let command) = AllowedCommand.parse(words) else {
                self = .app
                return
            }
            // `present`, `watch` and `mcp` are modes of their own; no allowed command is named `app` or `command`.
            self = command.subcommand.first.flatMap(Mode.init(rawValue:)) ?? .command
        }
    }

    public static let help: [String: String] = [
        active: "Sessions running now, by mode.",
        started: "Sessions the launcher started, by mode.",
        ended: "Sessions that ended (or never started after the launcher accepted them), by mode.",
    ]

    /// Makes every series at zero, so a scrape shows each mode before its first session.
    public static func declareAll() {
        for mode in Mode.allCases {
            let labels = [("mode", mode.rawValue)]
            _ = Meter(label: active, dimensions: labels)
            _ = Counter(label: started, dimensions: labels)
            _ = Counter(label: ended, dimensions: labels)
        }
    }

    /// `launcher`, counting each session it runs: started and active when it decides to run one,
    /// ended (and no longer active) when the command's `onExit` is called, which the server does
    /// exactly once whether the child ran or never started.
    public static func counting(_ launcher: @escaping SSHSessionLauncher) -> SSHSessionLauncher {
        { request in
            let decision = await launcher(request)
            guard case .run(var session) = decision else { return decision }
            let labels = [("mode", Mode(request).rawValue)]
            Counter(label: started, dimensions: labels).increment()
            Meter(label: active, dimensions: labels).increment()
            let onExit = session.onExit
            session.onExit = { end in
                Meter(label: active, dimensions: labels).decrement()
                Counter(label: ended, dimensions: labels).increment()
                onExit?(end)
            }
            return .run(session)
        }
    }
}
