import Foundation
import Logging
import Render
import Runtime
import Storage
import TabShell
import TerminalScreen

/// Why the main loop ended.
enum ExitReason: Equatable {
    case quit
    case signal(QuitSignal)
    case terminalGone
}

/// The main loop: terminal events in, through the runtime (key table, reducer, effects), and
/// the state drawn back out. Everything but the terminal lives in `AppRuntime`.
final class App {
    private let runtime: AppRuntime
    private let terminal: Terminal
    private let logger: Logger
    private var lastFrame: Frame?
    /// Set only by `TABSHELL_TEST_CRASH`, for the crash-guard end-to-end test.
    private let testCrash = CrashGuard.TestCrash.fromEnvironment()
    /// How photos can be shown, given the terminal's answers to the graphics queries.
    private let previewTerminal: (TerminalAnswers?) -> PreviewTerminal
    /// `--screen-reader`: the app gets one row less, the announcement line's (docs/accessibility.md).
    private let screenReader: Bool
    /// `--present`: told of each frame drawn, and asked after each wake for its count.
    var presenter: Presenter?
    /// A demo session's agent code as its heading shows it ("agent code k7mq-3fzp-x9hd"), nil elsewhere.
    var agentBadge: String?
    /// Asked once, right after the first frame (inside tmux it runs `tmux show`, which must never
    /// hold that frame): what "Copied …" adds when tmux would drop the copy.
    var clipboardNote: (() -> String?)?

    /// The heading's badge: the room's line when presenting, then the agent code when there is one.
    var badge: String? {
        let parts = [presenter?.badge, agentBadge].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    init(
        runtime: AppRuntime, terminal: Terminal, logger: Logger, previewTerminal: @escaping (TerminalAnswers?) -> PreviewTerminal,
        screenReader: Bool = false
    ) {
        self.runtime = runtime
        self.terminal = terminal
        self.logger = logger
        self.previewTerminal = previewTerminal
        self.screenReader = screenReader
    }

    /// Runs the session: the store opens off the loop (its settings, recovery and first reads
    /// arrive as events; the first frame waits a moment for them, not for a slow server).
    func run(resuming snapshot: SessionSnapshot? = nil, message: String? = nil) -> ExitReason {
        // However the loop ends, a capture still open keeps its staging folder as a draft.
        defer { runtime.finish() }
        runtime.open(resuming: snapshot, message: message)
        while !runtime.state.isQuitting {
            for text in runtime.takeClipboard() { terminal.copyToClipboard(text) }
            if runtime.needsRepaint { terminal.repaint() }
            if runtime.needsDraw, !runtime.holdsFrame() { draw() }
            let event = terminal.nextEvent(timeout: runtime.millisecondsToNextDeadline())
            switch event {
            case let .key(key):
                if key == .function(12), let crash = testCrash { crash.perform() }
                runtime.press(key)
            case let .click(row, column):
                if let action = lastFrame?.action(atRow: row, column: column) { runtime.dispatch(action) }
            case let .wheel(turn):
                runtime.dispatch(.wheelTurned(turn))
            case let .resized(size):
                runtime.dispatch(.resized(ScreenReader.appSize(terminal: size, options: renderOptions())))
            case let .signal(signal):
                logger.info("exiting on signal", metadata: ["signal": "\(signal)"])
                return .signal(signal)
            case .hangup:
                logger.info("terminal gone; exiting")
                return .terminalGone
            case .closingSoon:
                logger.info("the server says this idle session closes soon")
                runtime.dispatch(.idleSessionClosingSoon)
            case .timeout:
                break
            case let .terminalAnswered(answers):
                let found = previewTerminal(answers)
                logger.info(
                    "the terminal answered", metadata: ["photos": "\(found.describe(.automatic, usesColor: true))", "answers": "\(answers)"])
                runtime.dispatch(.previewTerminalFound(found))
            case .wake:
                runtime.deliverMail()
                if let presenter {
                    presenter.watchersChanged()
                    runtime.setPresenting(badge)
                }
            }
            runtime.fireDueTimers()
            runtime.checkForChangesElsewhere()
        }
        return .quit
    }

    private func renderOptions() -> RenderOptions {
        RenderOptions(unicode: terminal.isUnicode, color: terminal.supportsColor, now: Date(), screenReader: screenReader)
    }

    private func draw() {
        terminal.setColorEnabled(runtime.state.usesColor)
        terminal.setTheme(runtime.state.theme)
        let frame = Screen.render(runtime.state, options: renderOptions())
        terminal.draw(frame)
        lastFrame = frame
        runtime.drawn()
        presenter?.drawn(runtime.state, frame: frame)
        if let query = clipboardNote {
            clipboardNote = nil
            if let note = query() { runtime.dispatch(.clipboardNoteFound(note)) }
        }
    }
}
