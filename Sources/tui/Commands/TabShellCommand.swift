import ArgumentParser
import CPty
import CaptureMode
import Configuration
import Domain
import Foundation
import Logging
import Presenting
import Render
import Runtime
import SQLiteStorage
import ServePolicy
import Storage
import TabShell
import TabShellCommands
import TerminalScreen

@main
struct TabShellCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tabshell",
        abstract: "The iOS tab shell in your terminal: an Inbox of requests, a + Create action tab that opens capture mode, History and Settings.",
        usage: """
            tabshell [--db <path>] [--demo] [--as <name>] [--log-level <level>]
            tabshell inbox add|list|import|reopen|remove …
            tabshell history list|export|import …
            tabshell catalog import|list|clear …
            tabshell photos add|list|remove …
            tabshell serve [--listen <addr:port>] [--authorized-keys <file> | --demo]
            tabshell replay <file>
            tabshell --present   |   tabshell watch <code>
            tabshell mcp [--db <path|url>] [--as <name>]
            tabshell config path|check|default
            tabshell db copy --from <path> --to postgres://…
            tabshell doctor
            """,
        discussion: """
            Run without a subcommand to start the full-screen app. Data lives in \
            $XDG_DATA_HOME/tabshell (else ~/.local/share/tabshell) unless --db (or TABSHELL_DATABASE_URL) \
            names another file or a PostgreSQL server: --db postgres://user@host/dbname. \
            Press ? in the app for every key. Every command accepts --db and --log-level; the log is \
            tabshell.log beside the database, never the terminal.
            """,
        version: "0.1.0",
        subcommands: [
            InboxCommand.self, HistoryCommand.self, CatalogCommand.self, PhotosCommand.self, ServeCommand.self, DoctorChecks.self,
            DbCommand.self, GenerateData.self, ReplayCommand.self, ConfigCommand.self, WatchCommand.self, AgentServe.self,
        ]
    )

    /// argument-parser's own `main`, except that an error's message is made printable first: it
    /// may quote what was typed (`--bogus…`) or, under `tabshell serve`, what a client sent, and
    /// an escape in it must not reach the terminal that reads it. Help and version print as they are,
    /// and fail when they cannot be written.
    static func main() {
        // Under `serve`, the session template waits here for the sessions it forks; each goes on
        // from here with its own arguments, environment and terminal (CPty's SessionTemplate.c).
        _ = cpty_template_run_if_asked { TabShellCommand.warmUp() }
        // Before anything opens a database (the template never does: each session sets it).
        AppDatabase.useLeanConnections()
        if ProcessInfo.processInfo.environment[CrashGuard.servedVariable] == "1" { serveStandardError() }
        do {
            var command = try parseAsRoot(try ServeCommand.expanding(Array(arguments.dropFirst())))
            try command.run()
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                // Help and version through a command's own sink: `| head` ends quietly, a full
                // disk or a closed output says so and fails.
                let output = OutputSink(descriptor: STDOUT_FILENO)
                do {
                    try output.write(message.isEmpty ? "" : message + "\n")
                    try output.finish()
                } catch OutputSink.OutputError.closedByReader {
                    Glibc.exit(ExitStatus.brokenPipe.rawValue)
                } catch {
                    FileHandle(fileDescriptor: CrashGuard.clientStandardError, closeOnDealloc: false)
                        .write(Data("Error: \(error.sentence)\n".utf8))
                    Glibc.exit(1)
                }
            } else {
                let environment = ProcessInfo.processInfo.environment
                let printable = printableMessage(message, unicode: CommandContext.localeIsUTF8(environment: environment))
                if !printable.isEmpty { FileHandle(fileDescriptor: CrashGuard.clientStandardError, closeOnDealloc: false).write(Data((printable + "\n").utf8)) }
            }
            fflush(nil)
            Glibc.exit(code.rawValue)
        }
    }

    /// In the session template, once: argument parsing's first-use work (the reflection of every
    /// command's options, their metadata and conformances), which every session does before its
    /// first frame. Parsing reads no environment and no file; the result is dropped.
    static func warmUp() {
        let samples = [
            ["--db", "/warm-up/tabshell.sqlite", "--as", "warm-up", "--log-level", "info", "--session-folder", "/warm-up", "--resume-within", "600"],
            ["watch", "2345-6789-abcd"],
        ]
        for words in samples { _ = try? parseAsRoot(words) }
        warmUpFirstFrames()
    }

    /// The first frames' first-use work: the model's and the screens' type metadata and
    /// conformances, and the UTC calendar ages are counted in, which every session needs before
    /// it draws. Pure: a fresh state, a fixed `now`, sample rows; nothing from the environment,
    /// a file or the clock, and no thread.
    private static func warmUpFirstFrames() {
        let then = Date(timeIntervalSince1970: 1_000_000_000)
        let options = RenderOptions(now: then.addingTimeInterval(3 * 86_400))
        let request = InboxRequest(id: 1, title: "Scan the shelf label", body: "", kind: .barcode, status: .pending, createdAt: then)
        let row = HistoryRow(
            id: 1, kind: .barcode, barcode: Barcode(value: "4006381333931", symbology: .ean13), note: nil, requestID: 1,
            requestTitle: request.title, createdAt: then)
        var state = AppState()
        let actions: [AppAction] = [
            .started, .inbox(.loaded(InboxSnapshot(requests: [request], pendingCount: 1))), .tabChosen(.history),
            .history(.pageLoaded(HistoryPage(start: 0, rows: [row], totalCount: 1))), .tabChosen(.settings), .tabChosen(.inbox),
            .helpRequested, .escapePressed,
        ]
        for action in actions {
            _ = state.send(action)
            _ = Screen.render(state, options: options)
        }
    }

    /// This process's arguments. A session forked from `serve`'s template has its own; the
    /// process's (`CommandLine`'s) are the template's.
    /// Computed each time, never cached: a value cached in the template would be every session's.
    static var arguments: [String] {
        let count = cpty_template_session_argc()
        guard count > 0 else { return CommandLine.arguments }
        return (0..<count).map { cpty_template_session_argument($0).map { String(cString: $0) } ?? "" }
    }

    /// A child of `tabshell serve`: from its first instruction, a crash's details —
    /// the runtime's message, the frames, library paths — go to the log beside its database
    /// (the server's own in team mode), never to the remote client, who reads the server's one
    /// sentence. When that log cannot be opened, they go nowhere rather than to the client.
    /// The options are parsed, not built by hand: an option group made with `init()` has no
    /// value for an option that was not given, and reading it stops the program (`watch`, which
    /// takes no `--db`, did).
    static func serveStandardError() {
        let arguments = Self.arguments
        let given: String? = arguments.firstIndex(of: "--db").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
        guard let options = try? DatabaseOptions.parse(given.map { ["--db", $0] } ?? []),
            CrashGuard.serve(logFile: DatabaseOptions.logFile(beside: options.databaseURL()))
        else {
            _ = CrashGuard.serve(logFile: URL(fileURLWithPath: "/dev/null"))
            return
        }
    }

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var demoOption: DemoOption
    /// `--demo` (one option type shared with `serve`, so the flag reaches whichever command runs).
    var demo: Bool { demoOption.demo }

    @OptionGroup var identity: IdentityOptions

    @OptionGroup var served: ServedSessionOptions

    /// `--record FILE`: this session as an asciicast v2 file (one type shared with `serve`).
    @OptionGroup var recordOption: RecordOption

    @Option(
        help: ArgumentHelp(
            "A shell command run after each Done, with the record as one JSON line on its standard input (as history export --follow prints it).",
            valueName: "command"))
    var onCommit: String?

    @Option(help: ArgumentHelp("Seconds the on-commit command may run before it is stopped.", valueName: "seconds"))
    var onCommitTimeout = 10

    @Flag(
        help: ArgumentHelp(
            "For screen readers and braille displays: the cursor on what has focus, the last row announcing each change, words instead of symbols (also TABSHELL_SCREEN_READER=1)."
        ))
    var screenReader = false

    @Flag(help: ArgumentHelp("Share this session: its heading shows a watch code, and tabshell watch CODE follows it live at its own size."))
    var present = false

    func validate() throws {
        if demo, database.path != nil {
            throw ValidationError("--demo uses its own throw-away database; leave out --db.")
        }
        if let onCommit, onCommit.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--on-commit needs a command.")
        }
        if !(1...3600).contains(onCommitTimeout) {
            throw ValidationError("--on-commit-timeout must be between 1 and 3600 seconds.")
        }
    }

    func run() throws {
        umask(0o077)
        // Every thread of the app allocates from the one heap: glibc's default, an arena per
        // thread, gave each of a session's few threads (the store's, the change check's, the
        // signals') one of its own — memory a session pays for in every process. Set before the
        // first thread starts.
        _ = cpty_use_one_malloc_arena()
        if let file = recordOption.path {
            // The app runs again as a child on a terminal of its own, relayed and recorded.
            let status = try RecordedRun.run(file: file, arguments: Self.arguments)
            if status != 0 { throw ExitCode(status) }
            return
        }
        var demoDirectory: URL?
        defer { if let demoDirectory { try? FileManager.default.removeItem(at: demoDirectory) } }

        let url: URL
        if demo {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-demo-\(UUID().uuidString)")
            demoDirectory = directory
            url = directory.appendingPathComponent("tabshell.sqlite")
        } else {
            url = database.databaseURL()
        }

        let environment = ProcessInfo.processInfo.environment
        let logger = database.logger(beside: url)
        // A PostgreSQL server is opened off the loop, so one slow to answer (or stopped) never
        // holds the first frame; a local file is opened here, where a file that cannot be used is
        // one sentence before the terminal is taken. Settings and recovery come with the store's
        // first answer either way. A local file gets one connection: the session's store queue
        // sends it one call at a time, and a second connection's schema and cache would be
        // memory every session pays for nothing.
        let store: OpeningStore
        do {
            if demo {
                let file = try AppDatabase.open(at: url, connections: .single)
                try AppDatabase.seedDemo(file, now: Date())
                store = OpeningStore(file)
            } else if let server = database.postgresURL(environment: environment) {
                let opening = try StoreOpening.postgres(url: server, environment: environment, logger: logger, listen: true)
                store = OpeningStore(displayName: opening.name, open: opening.open)
            } else {
                store = OpeningStore(try database.openStore(environment: environment, logger: logger, listen: true, connections: .single))
            }
        } catch {
            throw Failure("\(error)")
        }
        logger.info("starting", metadata: ["db": "\(store.displayName)", "version": "\(Self.configuration.version)"])
        if !CrashGuard.install(logFile: DatabaseOptions.logFile(beside: url)) {
            logger.warning("could not install the crash guard: \(String(cString: strerror(errno)))")
        }

        var state = AppState(databaseLocation: store.displayName, environment: DisplayEnvironment(environment))
        if store.opened == nil { state.storeReach = .connecting(store.displayName) }
        // config.toml: its keys in force; each problem shown once on the status line.
        let configuration = ConfigFile.load(environment: environment).configuration
        state.keyOverrides = configuration.keyOverrides
        state.pendingNotices = configuration.problems.map(\.description)
        for problem in configuration.problems { logger.warning("\(problem.description)") }
        // config.toml's theme; a theme chosen in Settings wins over it (AppState.theme).
        state.environment.theme = configuration.theme
        let terminal = try Terminal(colorAllowed: !state.environment.noColor)
        // Screen-reader mode (the flag, else TABSHELL_SCREEN_READER, else config.toml's
        // screen_reader) keeps the last row for the announcement line.
        let screenReaderMode = ScreenReader.isOn(flag: screenReader, environment: environment, configured: configuration.screenReader)
        state.size = ScreenReader.appSize(terminal: terminal.size, options: RenderOptions(now: Date(), screenReader: screenReaderMode))
        // Asked once, and not waited for: the first frame is drawn at once with what is known
        // without the answers (photos in blocks), and the answers come later as an event. Not
        // in screen-reader mode: a reader's terminal emulation (Fenrir's) may show the question
        // as text and speak it.
        // The background only when colour is drawn and COLORFGBG does not already say it.
        if !screenReaderMode {
            terminal.askAboutGraphics(
                knownBackground: BackgroundColor(colorFGBG: environment["COLORFGBG"]), needsBackground: !state.environment.noColor)
        }
        let windowCellPixels = terminal.windowCellPixels
        let previewTerminal = { (answers: TerminalAnswers?) in
            PreviewTerminal.detect(
                isUTF8: terminal.isUnicode, colorCount: terminal.previewColorCount, environment: environment,
                answers: answers, windowCellPixels: windowCellPixels)
        }
        state.previewTerminal = previewTerminal(nil)
        logger.info(
            "photo previews until the terminal answers",
            metadata: ["automatic": "\(state.previewTerminal?.describe(.automatic, usesColor: true) ?? "")"])
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        let person = identity.person
        let session = served.start(person: person, logger: logger)
        state.photosFromUploads = session != nil
        let runtime = AppRuntime(
            store: store, state: state, logger: logger, home: home,
            previewCache: AppRuntime.previewCacheDirectory(environment: environment, home: home), wake: terminal.waker(),
            person: person, uploads: session?.folder.uploads,
            onCommit: onCommit.map { CommitHook(command: $0, timeout: .seconds(onCommitTimeout), store: store) })
        let app = App(runtime: runtime, terminal: terminal, logger: logger, previewTerminal: previewTerminal, screenReader: screenReaderMode)
        app.clipboardNote = { Terminal.tmuxClipboardNote(environment: environment) }
        if present {
            do {
                app.presenter = try Presenter(environment: environment, wake: terminal.waker())
            } catch {
                terminal.restore()
                throw Failure(error.sentence)
            }
        }
        // A demo session's agent code, which the visitor gives an agent (`ssh host mcp CODE`).
        app.agentBadge = environment[DemoDataSets.agentCodeKey].flatMap(WatchCode.init).map { "agent code \($0.text)" }
        runtime.setPresenting(app.badge)
        // Watchers are told the presentation ended however this session ends.
        defer { app.presenter?.end() }
        let capturedStandardError = CrashGuard.captureStandardError()
        let reason = app.run(resuming: session?.snapshot, message: session?.message)
        if let session, reason == .signal(.hangup) || reason == .terminalGone {
            session.keep(runtime.state.sessionSnapshot(savedAt: Date(), stagingID: runtime.stagingIDAtFinish), logger: logger)
        }
        terminal.restore()
        if capturedStandardError { CrashGuard.releaseStandardError() }
        runtime.awaitCommitHooks()
        logger.info("stopped", metadata: ["reason": "\(reason)"])
        switch reason {
        case .quit, .signal(.interrupt): return
        case let .signal(signal): throw ExitCode(128 + signal.rawValue)
        case .terminalGone: throw ExitCode(129)
        }
    }
}
