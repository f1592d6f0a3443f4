import CaptureMode
import Domain
import Foundation
import Logging
import Scanning
import Storage
import TabShell

/// The app without its terminal: the state, the reducer, the effect runner, timers, background
/// results and the check for other sessions' commits. Keys and clicks come in, effects are
/// performed, the state comes out; the terminal front end only draws `state` and feeds events.
/// Tests drive it on a real database in a temporary folder.
public final class AppRuntime {
    /// Changed only by `dispatch`, through the model's reducer: the runtime performs effects and
    /// feeds their results back as actions.
    public private(set) var state: AppState
    private let runner: EffectRunner
    private let mailbox = Mailbox()
    private let logger: Logger
    private var timers: [(deadline: ContinuousClock.Instant, action: AppAction)] = []
    /// Set by every dispatch: a loop turn that changed nothing renders nothing.
    public private(set) var needsDraw = true
    /// An effect asked for every cell of the screen to be painted again (Ctrl-L).
    public private(set) var needsRepaint = false
    /// Text the model asked to put on the terminal's clipboard, oldest first, until the front
    /// end takes it (`takeClipboard`) and writes it (OSC 52).
    public private(set) var clipboard: [String] = []

    /// Other sessions' commits are noticed by polling the store's change counter (SQLite's
    /// `PRAGMA data_version`) this often where the store gives no news of them: within a
    /// second, without a key press, at the cost of one read per interval (and no redraw unless
    /// something changed).
    public static let changeCheckInterval: Duration = .milliseconds(400)
    /// The poll's interval where the store does give news (``listenForChanges()``): the news
    /// brings a check at once, and the poll is only the floor. Each check wakes two threads:
    /// polling at 400 ms, an idle session spent 0.50–0.60 ms of CPU a second, most of it on
    /// the checks; at 2 s, 0.17–0.18 (docs/performance.md, "A thousand idle polls").
    public static let hintedChangeCheckInterval: Duration = .seconds(2)
    private var nextChangeCheck = ContinuousClock.now
    private var lastChangeCounter: Int64?
    /// The sentence of a database server that went away, until it is back.
    private var unreachable: String?
    /// A change check has been asked for and not answered: at most one is in flight.
    private var changeCheckInFlight = false
    /// The store's news that another process may have committed (``listenForChanges()``): the
    /// next check is made at once instead of at its interval.
    private let hinted = ChangeHint()
    private let wake: @Sendable () -> Void
    private var changeHints: ChangeHints?

    /// `wake` is called from background threads when results are waiting (see `deliverMail`).
    /// `person` is who captures (kept with each record and draft); `uploads`, under `tabshell
    /// serve`, is the only folder photos may come from; `previewCache` is the folder photo
    /// previews are kept in (nil: none kept on disk); `onCommit` runs after each Done.
    /// `storage` is where the store is called: the app's `.background` (a queue of the
    /// session's own; answers come back after a `wake`), or `.inline` for tests that read
    /// every result as soon as the action is dispatched. Nothing else here calls the store, which may
    /// still be opening: ``open(resuming:message:)`` opens it off the loop and starts the session
    /// when it answers.
    public init(
        store: OpeningStore, state: AppState, logger: Logger, home: String,
        previewCache: URL? = nil, wake: @escaping @Sendable () -> Void,
        person: String? = nil, uploads: UploadFolder? = nil, onCommit: CommitHook? = nil,
        storage: StorageExecutor = .background
    ) {
        self.state = state
        self.logger = logger
        self.wake = wake
        runner = EffectRunner(
            database: store, logger: logger, home: home, mailbox: mailbox, previewCache: previewCache, wake: wake,
            uploads: uploads, person: person, onCommit: onCommit, executor: storage)
    }

    /// Where photo previews are cached: `$XDG_CACHE_HOME/tabshell/previews` when that is an
    /// absolute path, else `~/.cache/tabshell/previews`.
    public static func previewCacheDirectory(environment: [String: String], home: String) -> URL {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return URL(fileURLWithPath: cache, isDirectory: true).appendingPathComponent("tabshell/previews", isDirectory: true)
        }
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache/tabshell/previews", isDirectory: true)
    }

    // MARK: - Opening the store

    /// How long the first frame waits for the store to open (a local file opens well within it,
    /// so its first frame already has the stored settings and theme); a store slower than this
    /// gets the shell at once with "Connecting to …" in the heading, and its answer arrives as
    /// an event.
    public static let firstFrameHold: Duration = .milliseconds(100)
    /// How long after a failed open the next try starts.
    public static let openRetryInterval: Duration = .seconds(3)

    private enum StoreState: Equatable {
        case opening(since: ContinuousClock.Instant)
        case failed(retryAt: ContinuousClock.Instant, sentence: String)
        case open
    }

    private var storeState: StoreState = .open
    private var resumeOnOpen: (snapshot: SessionSnapshot?, message: String?)
    private var hasDrawn = false

    /// Opens the store off the loop (its settings read and the recovery sweep run with it), then
    /// starts the session as ``start(recovery:resuming:message:)`` does. Until it answers the
    /// keys work on what the shell holds; a failure is said in the heading and on the status
    /// line, and the open is tried again every ``openRetryInterval``.
    public func open(resuming snapshot: SessionSnapshot? = nil, message: String? = nil, now: ContinuousClock.Instant = .now) {
        resumeOnOpen = (snapshot, message)
        beginOpening(now: now)
    }

    private func beginOpening(now: ContinuousClock.Instant) {
        storeState = .opening(since: now)
        for action in runner.openStore(now: Date(), then: { [weak self] outcome in self?.storeAnswered(outcome) ?? [] }) {
            dispatch(action)
        }
    }

    /// The store's first answer, or its failure to open.
    private func storeAnswered(_ outcome: Result<EffectRunner.Opened, StorageError>) -> [AppAction] {
        switch outcome {
        case let .success(opened):
            storeState = .open
            var recovery: RecoveryReport?
            switch opened.recovery {
            case let .success(report):
                recovery = report
                if let report, !report.summary.isEmpty { logger.info("recovery: \(report.summary)") }
                for problem in report?.problems ?? [] { logger.warning("recovery: \(problem)") }
            case let .failure(error):
                logger.error("recovery failed: \(error.message)")
            }
            dispatch(.storeOpened(opened.settings))
            start(recovery: recovery, resuming: resumeOnOpen.snapshot, message: resumeOnOpen.message)
            resumeOnOpen = (nil, nil)
            // The baseline the open took, before the first reads: a commit elsewhere since is a change.
            lastChangeCounter = opened.changeCounter
            listenForChanges()
            nextChangeCheck = .now
            return []
        case let .failure(error):
            let sentence = error.message
            if case let .failed(_, last) = storeState, last == sentence {
                logger.debug("open failed again: \(sentence)")
            } else {
                logger.error("open failed: \(sentence)")
            }
            storeState = .failed(retryAt: .now.advanced(by: Self.openRetryInterval), sentence: sentence)
            return [.databaseReachability(problem: sentence)]
        }
    }

    /// A failed open is tried again when its time has come (one open at a time).
    private func retryOpenIfDue(now: ContinuousClock.Instant) {
        guard case let .failed(retryAt, _) = storeState, now >= retryAt else { return }
        beginOpening(now: now)
    }

    /// How long a frame waits for the storage reads the change before it asked for (a History
    /// page, a search's rows): a read that answers within it is drawn in the same frame as the
    /// change, instead of a frame of placeholders and then another of rows.
    public static let frameHold: Duration = .milliseconds(30)
    /// When the storage queue last went from idle to busy, while it is busy (main thread).
    private var storageBusySince: ContinuousClock.Instant?

    /// Whether the frame due now waits a moment: the first frame for the store to open (at most
    /// ``firstFrameHold``), a later one for the reads its change asked for (at most
    /// ``frameHold`` from when the queue became busy, so a slow call — a Done on a silent server
    /// — holds no key's frame for longer, and the frames after it not at all).
    public func holdsFrame(now: ContinuousClock.Instant = .now) -> Bool {
        guard let end = frameHoldEnd else { return false }
        return now < end
    }

    private var frameHoldEnd: ContinuousClock.Instant? {
        // The first frame waits for the store to open, not for the reads after it: the shell
        // is on screen as soon as the store answers (measured: waiting for the Inbox's read too
        // made the first frame 5–10 ms later at 10k and 1M records).
        guard hasDrawn else {
            guard case let .opening(since) = storeState else { return nil }
            return since.advanced(by: Self.firstFrameHold)
        }
        return storageBusySince?.advanced(by: Self.frameHold)
    }

    /// Notes when the storage queue became busy (after a dispatch, and after answers arrive).
    private func noteStorageBusy(now: ContinuousClock.Instant = .now) {
        if runner.storageCallsPending == 0 {
            storageBusySince = nil
        } else if storageBusySince == nil {
            storageBusySince = now
        }
    }

    /// Starts the session: loads what the tabs show and offers what recovery found. With a
    /// `snapshot` (a person back within the resume window), the navigation comes back as it was
    /// and the capture in progress takes its staging folder back, which is then not offered as
    /// a draft; `message` says so on the status line.
    public func start(recovery: RecoveryReport?, resuming snapshot: SessionSnapshot? = nil, message: String? = nil) {
        dispatch(.started)
        var recovery = recovery
        if let snapshot {
            var photos: [StagedPhoto] = []
            if let stagingID = snapshot.capture?.stagingID,
                let index = recovery?.drafts.firstIndex(where: { $0.id == stagingID }),
                let found = recovery?.drafts[index]
            {
                recovery?.drafts.remove(at: index)
                do {
                    photos = try runner.adoptDraft(found)
                } catch {
                    logger.warning("could not take the capture back: \(error.message)")
                }
            }
            logger.info("session restored", metadata: ["saved": "\(snapshot.savedAt)", "photos": "\(photos.count)"])
            dispatch(.sessionRestored(snapshot, photos: photos, message: message))
        } else if let message {
            dispatch(.messageShown(message))
        }
        if let recovery {
            dispatch(.recoveryFinished(drafts: runner.recovered(recovery), summary: recovery.summary))
        }
    }

    /// The session ends (quit, signal, hang-up): a capture still open keeps its staging folder
    /// as a draft for the next start.
    public func finish() {
        // What the screen showed is what the draft keeps, however the session ends (a signal,
        // a hang-up), and on the disk before the process goes.
        if let draft = state.unsavedDraft {
            runner.photoStager.saveDraft(draft, now: Date(), durably: true)
        }
        stagingIDAtFinish = runner.photoStager.currentSession.map { $0.id.uuidString.lowercased() }
        // A Done on its way is given a moment to land (its session's lock then released
        // cleanly); one that does not is what a kill during Done is: recovery knows it.
        if !runner.drainStorage(within: Self.storageDrainLimit) {
            logger.warning("storage calls still running at exit", metadata: ["pending": "\(runner.storageCallsPending)"])
        }
        runner.previewLoader.cancelAll()
        runner.photoStager.closeKeepingDraft()
    }

    /// Gives the on-commit commands started or waiting up to `limit` to finish (called once the
    /// terminal is back, so quitting is not held up on screen); true when none is left.
    @discardableResult
    public func awaitCommitHooks(within limit: Duration = .seconds(2)) -> Bool {
        runner.commitHook?.drain(within: limit) ?? true
    }

    /// How long the end of a session waits for storage calls already queued (a Done).
    public static let storageDrainLimit: Duration = .seconds(1)

    /// Storage calls queued or running (not the change check): what a test waits for.
    public var storageCallsPending: Int { runner.storageCallsPending }

    /// A change-counter read has been asked for and has not answered.
    public var isCheckingForChanges: Bool { changeCheckInFlight }

    /// The staging folder of the capture open when the session finished, for its snapshot.
    public private(set) var stagingIDAtFinish: String?

    // MARK: - Input

    /// A key, through the one key table; a key that means nothing here does nothing. `at` is
    /// when it arrived, for telling a scanner's burst from typing.
    public func press(_ key: Key, at instant: ContinuousClock.Instant = .now) {
        timeCodeEntry(key, at: instant)
        if let action = KeyMap.action(for: key, in: state) { dispatch(action) }
    }

    /// The keystrokes of the code being entered, timed: at Enter or Tab, whether a scanner or a
    /// person typed it goes to the capture (and onto the record).
    private var codeEntry = KeystrokeClassifier()
    private let keyClockOrigin = ContinuousClock.now

    private func timeCodeEntry(_ key: Key, at instant: ContinuousClock.Instant) {
        guard let capture = state.presentation.capture, capture.phase == .barcode, capture.isEditingText else {
            codeEntry.reset()
            return
        }
        let time = keyClockOrigin.duration(to: instant)
        let entry: KeystrokeClassifier.Entry?
        switch key {
        case let .character(character): entry = codeEntry.feed(Keystroke(character, at: time))
        case .control("]"): entry = codeEntry.feed(Keystroke("\u{1D}", at: time))
        case .enter: entry = codeEntry.feed(Keystroke("\r", at: time))
        case .tab: entry = codeEntry.feed(Keystroke("\t", at: time))
        default:
            // An edit (Backspace, a cursor move) is a person's.
            entry = codeEntry.pending.isEmpty ? nil : codeEntry.feed(Keystroke("\u{8}", at: time + .seconds(1)))
        }
        if let entry, entry.keystrokes.count > 1 {
            dispatch(.capture(.codeSourceMeasured(entry.source == .scanner ? .scanner : .person)))
        }
    }

    /// Runs an action and every action its effects lead to, in order.
    public func dispatch(_ first: AppAction, now: Date = Date()) {
        needsDraw = true
        var queue = [first]
        while !queue.isEmpty {
            let action = queue.removeFirst()
            for effect in state.send(action) {
                switch runner.perform(effect, maximumPhotoBytes: state.settings.maximumPhotoBytes, now: now) {
                case let .actions(actions):
                    queue += actions
                case let .schedule(milliseconds, action):
                    timers.append((ContinuousClock.now.advanced(by: .milliseconds(milliseconds)), action))
                case .repaint:
                    needsRepaint = true
                case let .clipboard(text):
                    clipboard.append(text)
                }
            }
        }
        noteStorageBusy()
    }

    /// Results background work posted (storage answers, photo copies), after a wake.
    public func deliverMail() {
        let answers = runner.takeFinishedStorageWork()
        // Every call answered: reads the answers lead to are held for afresh.
        if runner.storageCallsPending == 0 { storageBusySince = nil }
        for action in answers { dispatch(action) }
        for action in mailbox.takeAll() { dispatch(action) }
        noteStorageBusy()
    }

    // MARK: - Time

    /// Milliseconds until the next timer or change check is due; the loop sleeps at most this long.
    public func millisecondsToNextDeadline(now: ContinuousClock.Instant = .now) -> Int {
        var deadlines = timers.map(\.deadline)
        switch storeState {
        case .open: deadlines.append(nextChangeCheck)
        case let .failed(retryAt, _): deadlines.append(retryAt)
        case .opening: break
        }
        if needsDraw, let end = frameHoldEnd, end > now { deadlines.append(end) }
        // Nothing due: the loop wakes for the terminal, a wake, or this.
        let next = deadlines.min() ?? now.advanced(by: .seconds(1))
        return max(0, Int(now.duration(to: next) / .milliseconds(1)) + 1)
    }

    /// Sends the actions of every timer due at `now`.
    public func fireDueTimers(now: ContinuousClock.Instant = .now) {
        let due = timers.filter { $0.deadline <= now }
        timers.removeAll { $0.deadline <= now }
        for timer in due { dispatch(timer.action) }
    }

    /// Reads the database's change counter when it is due, off the loop (at most one read in
    /// flight; the answer comes back after a wake); a move means another process committed,
    /// and what is on screen is read again. A failed read is logged once per failure streak
    /// and retried at the next interval.
    public func checkForChangesElsewhere(now: ContinuousClock.Instant = .now, force: Bool = false) {
        guard storeState == .open else { return retryOpenIfDue(now: now) }
        guard !changeCheckInFlight else { return }
        let hint = hinted.take()
        guard force || hint || now >= nextChangeCheck else { return }
        nextChangeCheck = now.advanced(by: changeHints == nil ? Self.changeCheckInterval : Self.hintedChangeCheckInterval)
        changeCheckInFlight = true
        let actions = runner.readChangeCounter { [weak self] outcome in
            guard let self else { return [] }
            changeCheckInFlight = false
            return changeCounterRead(outcome)
        }
        for action in actions { dispatch(action) }
    }

    /// Asks the store for news of other processes' commits (a kernel file event for SQLite, the
    /// listener's NOTIFY for PostgreSQL), each waking the loop for a check at once, so what
    /// another session or an agent writes is on screen within a frame; the interval's poll stays.
    public func listenForChanges() {
        guard changeHints == nil else { return }
        let (hinted, wake) = (hinted, wake)
        changeHints = runner.changeHints {
            hinted.raise()
            wake()
        }
    }

    /// What a change-counter read means for the screen.
    private func changeCounterRead(_ outcome: Result<Int64, StorageError>) -> [AppAction] {
        switch outcome {
        case let .success(counter):
            defer { lastChangeCounter = counter }
            if unreachable != nil {
                unreachable = nil
                logger.info("database reachable again")
                return [.databaseReachability(problem: nil)]
            } else if let last = lastChangeCounter, last != counter {
                logger.debug("database changed elsewhere", metadata: ["data_version": "\(counter)"])
                return [.databaseChangedElsewhere]
            }
            return []
        case let .failure(error):
            if lastChangeCounter != nil { logger.warning("change check: \(error.message)") }
            lastChangeCounter = nil
            // A server gone away is said once, and again only if it changes its reason.
            if case let .unreachable(sentence) = error, unreachable != sentence {
                unreachable = sentence
                return [.databaseReachability(problem: sentence)]
            }
            return []
        }
    }

    /// The copies waiting for the terminal, which the caller now writes.
    public func takeClipboard() -> [String] {
        exchange(&clipboard, with: [])
    }

    /// Presenting: the heading's "watch 4821 · 3 watching"; nil when not presenting.
    public func setPresenting(_ text: String?) {
        guard state.environment.presenting != text else { return }
        dispatch(.presentingChanged(text))
    }

    // MARK: - Drawing

    /// The front end drew `state`: clears the draw and repaint requests.
    public func drawn() {
        hasDrawn = true
        needsDraw = false
        needsRepaint = false
    }
}
