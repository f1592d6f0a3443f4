import ArgumentParser
import Foundation
import Presenting
import Render
import TabShell
import TabShellCommands
import TerminalScreen

/// `tabshell watch CODE` (and `ssh -t host watch CODE` under serve): follows a presentation
/// live, drawn at this terminal's size from the presenter's state. No store is opened: a
/// watcher reads and writes nobody's data, and its keys reach nobody (q leaves, ? says so).
struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Follow a presentation (tabshell --present, or ssh -t host present) by its watch code, at your own terminal's size.",
        discussion: "q leaves; ? shows what a watcher can do. Nothing you press changes the presenter's screen."
    )

    @Argument(help: ArgumentHelp("The watch code on the presenter's screen (watch k7mq-3fzp-x9hd).", valueName: "code"))
    var code: String

    /// How long the first screen may take to come (the presenter draws within a frame).
    static let firstScreenWait: Int32 = 5000

    func run() throws {
        guard let watchCode = WatchCode(code) else {
            throw Failure("A watch code is three groups of four letters and digits, as the presenter's screen shows it (watch k7mq-3fzp-x9hd).")
        }
        // Watchers yield the cores to the presenter (and to everyone else's sessions): a room
        // of them redrawing at once must not make the person presenting wait.
        _ = nice(10)
        let environment = ProcessInfo.processInfo.environment
        let connection: WatchConnection
        do {
            connection = try WatchConnection(
                code: watchCode, directory: .forEnvironment(environment), name: environment[PresentDirectory.watcherNameKey] ?? NSUserName())
        } catch {
            throw Failure(error.sentence)
        }
        // The first screen, before the terminal is taken: a full room is said on a plain line.
        var first: Data?
        var poller = pollfd(fd: connection.descriptor, events: Int16(POLLIN), revents: 0)
        while first == nil {
            guard poll(&poller, 1, Self.firstScreenWait) > 0 else {
                throw Failure("The presentation \(watchCode) did not answer; try again.")
            }
            switch connection.read() {
            case let .states(states): first = states.last
            case .ended: throw Failure("The presentation ended.")
            case .full: throw Failure("The presentation \(watchCode) has as many watchers as it takes; try again later.")
            }
        }
        let terminal = try Terminal(colorAllowed: DisplayEnvironment(environment).noColor == false)
        let inbox = WatchInbox(first: first)
        let wake = terminal.waker()
        let reader = Thread {
            while true {
                switch connection.read() {
                case let .states(states):
                    if let last = states.last {
                        inbox.put(last)
                        wake()
                    }
                case .ended, .full:
                    inbox.end()
                    wake()
                    return
                }
            }
        }
        reader.start()
        let outcome = WatchScreen(code: watchCode, terminal: terminal, environment: environment).run(inbox: inbox)
        terminal.restore()
        switch outcome {
        case .left: return
        case .ended:
            print("The presentation ended.")
        case .terminalGone: throw ExitCode(129)
        }
    }
}

/// The newest state the reader thread got, until the loop takes it (older ones are skipped).
final class WatchInbox: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: Data?
    private var ended = false

    init(first: Data?) { latest = first }

    func put(_ state: Data) { lock.withLock { latest = state } }
    func end() { lock.withLock { ended = true } }

    func take() -> (Data?, Bool) {
        lock.withLock {
            defer { latest = nil }
            return (latest, ended)
        }
    }
}

/// The watcher's loop: the newest presented state drawn at this terminal's size.
struct WatchScreen {
    enum Outcome { case left, ended, terminalGone }

    let code: WatchCode
    let terminal: Terminal
    let environment: [String: String]

    func run(inbox: WatchInbox) -> Outcome {
        let decoder = JSONDecoder()
        var screen: PresentedScreen?
        var showsHelp = false
        var needsDraw = true
        var display = DisplayEnvironment(environment)
        display.presenting = "watching \(code)"
        while true {
            let (latest, ended) = inbox.take()
            if ended { return .ended }
            // A state that does not read (another version, garbage) keeps the last good one.
            if let latest, let decoded = try? decoder.decode(PresentedScreen.self, from: latest),
                decoded.version == PresentedScreen.currentVersion
            {
                screen = decoded
                needsDraw = true
            }
            if needsDraw, let screen {
                var state = AppState.watching(screen, size: terminal.size, environment: display)
                if showsHelp {
                    // Whole on the line or shortened to what fits: a 12-symbol code leaves a
                    // 40-column phone no room for the keys, which the hint line shows anyway.
                    let note = "Watching \(code) · q leaves · ? hides"
                    state.status = StatusMessage(note.count + 2 <= terminal.size.columns ? note : "Watching \(code)")
                }
                terminal.setColorEnabled(state.usesColor)
                terminal.draw(Screen.render(state, options: RenderOptions(unicode: terminal.isUnicode, color: terminal.supportsColor, now: Date())))
                needsDraw = false
            }
            // The keys the hint line shows (WatcherKey), and no others.
            switch terminal.nextEvent(timeout: 1000) {
            case let .key(.character(character)) where WatcherKey(character) == .leave: return .left
            case let .key(.character(character)) where WatcherKey(character) == .help:
                showsHelp.toggle()
                needsDraw = true
            case .resized:
                needsDraw = true
            case .signal: return .left
            case .hangup: return .terminalGone
            default: break
            }
        }
    }
}
