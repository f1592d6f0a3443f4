import CaptureMode
import Foundation
import Logging
import Render
import Storage
import TabShell

/// Why the main loop ended.
enum ExitReason: Equatable {
    case quit
    case signal(QuitSignal)
    case terminalGone
}

/// The main loop: reads terminal events, turns them into actions through the key table, runs the
/// reducer, performs its effects (storage, timers) and feeds their results back as actions.
final class App {
    private(set) var state: AppState
    private let database: AppDatabase
    private let terminal: Terminal
    private let logger: Logger
    private let colorAllowed: Bool
    private var timers: [(deadline: ContinuousClock.Instant, action: AppAction)] = []
    private var lastFrame: Frame?
    /// Set by every dispatch: a loop turn that changed nothing (an unbound key, a change check
    /// that found nothing) renders nothing. Ctrl-L and SIGCONT arrive as a resize, a dispatch.
    private var needsDraw = true
    /// Other sessions' commits are noticed by polling `PRAGMA data_version` this often: within a
    /// second, without a key press, at the cost of one pragma per interval (and no redraw unless
    /// something changed).
    static let changeCheckInterval: Duration = .milliseconds(400)
    private var nextChangeCheck = ContinuousClock.now
    private var lastChangeCounter: Int64?
    /// Results posted by background work (photo copies), delivered on `.wake`.
    private let mailbox = Mailbox()
    /// Drafts start-up recovery found, by staging id, for Resume / Discard.
    private var recoveredDrafts: [String: RecoveryReport.Draft] = [:]
    private lazy var photoStager = PhotoStager(database: database, mailbox: mailbox, wake: terminal.waker(), logger: logger, home: home)
    /// Set only by `TABSHELL_TEST_CRASH`, for the crash-guard end-to-end test.
    private let testCrash = CrashGuard.TestCrash.fromEnvironment()
    private let home = ProcessInfo.processInfo.environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        ?? FileManager.default.homeDirectoryForCurrentUser.path

    init(database: AppDatabase, terminal: Terminal, settings: Settings, colorAllowed: Bool, logger: Logger) {
        self.database = database
        self.terminal = terminal
        self.logger = logger
        self.colorAllowed = colorAllowed
        self.state = AppState(settings: settings, size: terminal.size, databaseLocation: database.url.path)
        terminal.setColorEnabled(colorAllowed && settings.colorEnabled)
    }

    func run(recovery: RecoveryReport?) -> ExitReason {
        // However the loop ends, a capture still open keeps its staging folder as a draft.
        defer { photoStager.closeKeepingDraft() }
        dispatch(.started)
        if let recovery { dispatch(.recoveryFinished(drafts: offers(for: recovery), summary: recovery.summary)) }
        while !state.isQuitting {
            if needsDraw { draw() }
            let event = terminal.nextEvent(timeout: millisecondsToNextTimer())
            switch event {
            case let .key(key):
                if key == .function(12), let crash = testCrash { crash.perform() }
                if let action = KeyMap.action(for: key, in: state) { dispatch(action) }
            case let .click(row, column):
                if let action = lastFrame?.action(atRow: row, column: column) { dispatch(action) }
            case let .scroll(up):
                dispatch(.listMoved(up ? .up : .down))
            case let .resized(size):
                dispatch(.resized(size))
            case let .signal(signal):
                logger.info("exiting on signal", metadata: ["signal": "\(signal)"])
                return .signal(signal)
            case .hangup:
                logger.info("terminal gone; exiting")
                return .terminalGone
            case .timeout:
                break
            case .wake:
                for action in mailbox.takeAll() { dispatch(action) }
            }
            fireDueTimers()
            checkForChangesElsewhere()
        }
        return .quit
    }

    // MARK: - Actions and effects

    private func dispatch(_ first: AppAction) {
        needsDraw = true
        var queue = [first]
        while !queue.isEmpty {
            let action = queue.removeFirst()
            for effect in state.send(action) {
                queue += perform(effect)
            }
        }
        photoStager.saveDraft(of: state.presentation.capture)
    }

    private func perform(_ effect: AppEffect) -> [AppAction] {
        switch effect {
        case .loadInbox:
            return storage { [.inboxLoaded(try $0.inbox())] }
        case let .loadHistory(request):
            return storage { [.historyLoaded(try $0.historyPage(request, mode: request.mode))] }
        case let .commitCapture(submission):
            do {
                let id = try photoStager.commit(submission, now: Date())
                logger.info("capture committed", metadata: ["id": "\(id)", "kind": "\(submission.kind.rawValue)"])
                return [.captureCommitted(recordID: id, submission: submission)]
            } catch {
                logger.error("commit failed: \(error.message)")
                return [.captureCommitFailed(error.message)]
            }
        case let .saveSettings(settings):
            terminal.setColorEnabled(colorAllowed && settings.colorEnabled)
            return storage { try $0.saveSettings(settings); return [] }
        case let .scheduleAutoAdvance(milliseconds, token):
            let deadline = ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
            timers.append((deadline, .capture(.autoAdvanceElapsed(token: token))))
            return []
        case let .stagePhoto(path):
            return photoStager.stage(path, maxBytes: state.settings.maximumPhotoBytes)
        case let .unstagePhoto(photo):
            photoStager.remove(photo)
            return []
        case .discardStaging:
            photoStager.discard()
            return []
        case let .resumeDraft(id):
            guard let draft = recoveredDrafts[id] else { return [.draftDropped(id)] }
            do {
                photoStager.adopt(try database.resumeDraft(draft))
                logger.info("draft resumed", metadata: ["staging": "\(id)"])
                return [.draftResumed(id)]
            } catch {
                return [.draftDropped(id), .storageFailed(error.message)]
            }
        case let .discardDraft(id):
            if let draft = recoveredDrafts[id] {
                do { try database.discardDraft(draft) } catch { logger.warning("discarding a draft: \(error.message)") }
                logger.info("draft discarded", metadata: ["staging": "\(id)"])
            }
            return [.draftDropped(id)]
        case let .completePath(text):
            return [.capture(PathCompleter(home: home).complete(text))]
        case .quit:
            return []
        case let .loadRecordDetail(id):
            return storage { [.recordDetailLoaded(id: id, detail: try $0.recordDetail(id: id))] }
        case let .deleteRecord(id):
            return storage { db in
                _ = try db.deleteRecord(id: id)
                logger.info("record deleted", metadata: ["id": "\(id)"])
                return [.recordDeleted(id)]
            }
        case .deleteAllRecords:
            return storage { db in
                let count = try db.deleteAllRecords()
                logger.info("all records deleted", metadata: ["count": "\(count)"])
                return [.allRecordsDeleted(count: count)]
            }
        case let .search(query, limit):
            return storage { [.searchResultsLoaded(query: query, rows: try $0.search(query, limit: limit))] }
        case let .scheduleHighlightEnd(milliseconds, token):
            timers.append((ContinuousClock.now.advanced(by: .milliseconds(milliseconds)), .highlightEnded(token: token)))
            return []
        }
    }

    /// Runs a storage call, turning its error into a status-line message instead of a crash.
    private func storage(_ body: (AppDatabase) throws -> [AppAction]) -> [AppAction] {
        do {
            return try body(database)
        } catch {
            let message = sentence(for: error)
            logger.error("storage: \(message)")
            return [.storageFailed(message)]
        }
    }

    // MARK: - Drafts

    /// Turns recovered drafts into offers: the capture rebuilt as it was, with a one-line summary.
    private func offers(for report: RecoveryReport) -> [DraftOffer] {
        let requests = (try? database.inbox().requests) ?? []
        let config = CaptureConfig(
            autoAdvanceMilliseconds: state.settings.autoAdvanceMilliseconds,
            allowsFreeText: state.settings.allowFreeTextCodes,
            maximumPhotos: state.settings.maximumPhotos,
            maximumPhotoBytes: state.settings.maximumPhotoBytes
        )
        return report.drafts.sorted { $0.draft.updatedAt > $1.draft.updatedAt }.map { found in
            recoveredDrafts[found.id] = found
            let draft = found.draft
            let link = draft.requestID.flatMap { id in requests.first { $0.id == id } }
                .map { CaptureRequestLink(id: $0.id, title: $0.title, kind: $0.kind) }
            let capture = CaptureState(
                config: config, request: link, kind: draft.kind,
                phase: CapturePhase(rawValue: draft.phase) ?? .picker,
                barcode: draft.barcode, note: draft.note, photos: draft.photos
            )
            var parts: [String] = []
            if let barcode = draft.barcode { parts.append(barcode.value) }
            if let note = draft.note?.split(separator: "\n").first { parts.append("\u{201C}\(note.prefix(40))\u{201D}") }
            if !draft.photos.isEmpty { parts.append(draft.photos.count == 1 ? "1 photo" : "\(draft.photos.count) photos") }
            let what = parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")
            return DraftOffer(id: found.id, summary: "A \(draft.kind.title.lowercased()) capture\(what).", capture: capture)
        }
    }

    // MARK: - Timers

    private func millisecondsToNextTimer() -> Int? {
        guard let next = (timers.map(\.deadline) + [nextChangeCheck]).min() else { return nil }
        let remaining = ContinuousClock.now.duration(to: next)
        let ms = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
        return max(0, Int(ms) + 1)
    }

    private func fireDueTimers() {
        let now = ContinuousClock.now
        let due = timers.filter { $0.deadline <= now }
        timers.removeAll { $0.deadline <= now }
        for timer in due { dispatch(timer.action) }
    }

    /// Reads the database's change counter when it is due; a move means another process
    /// committed, and what is on screen is read again. A failed read is logged once per failure
    /// streak and retried at the next interval.
    private func checkForChangesElsewhere() {
        let now = ContinuousClock.now
        guard now >= nextChangeCheck else { return }
        nextChangeCheck = now.advanced(by: Self.changeCheckInterval)
        do {
            let counter = try database.externalChangeCounter()
            defer { lastChangeCounter = counter }
            if let last = lastChangeCounter, last != counter {
                logger.debug("database changed elsewhere", metadata: ["data_version": "\(counter)"])
                dispatch(.databaseChangedElsewhere)
            }
        } catch {
            if lastChangeCounter != nil { logger.warning("change check: \(error.message)") }
            lastChangeCounter = nil
        }
    }

    // MARK: - Drawing

    private func draw() {
        let options = RenderOptions(unicode: terminal.isUnicode, color: terminal.supportsColor, now: Date())
        let frame = Screen.render(state, options: options)
        terminal.draw(frame)
        lastFrame = frame
        needsDraw = false
    }
}
