import CaptureMode
import Domain
import TabShell
import Testing

extension AppEffect {
    /// The first tick of the wait of Done number `token`, scheduled with its commit.
    static func firstSaveTick(of token: Int = 1) -> AppEffect {
        .schedule(afterMilliseconds: PendingSave.tickMilliseconds, action: .capture(.saveWaited(token: token, seconds: 1)))
    }
}

/// Keys through the one key table while Done's save waits (the store silent): each acts at once
/// or is refused with its sentence; none waits for the store, and none is dropped without a word.
@Suite("Shell: keys while Done saves")
struct SavingKeysTests {
    /// A photos capture with two photos staged, previews on, saved by Done.
    private static func savingPhotos() throws -> AppState {
        var state = AppState.loaded()
        state.previewTerminal = testPreviewTerminal
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.photos))])
        for index in 0..<2 {
            _ = state.send([.capture(.textTyped("x.png")), .capture(.enterPressed), .capture(.photoStaged(stagedPhoto(index)))])
        }
        let effects = state.send(try #require(KeyMap.action(for: .control("d"), in: state)))
        #expect(effects.commits.count == 1)
        #expect(effects.contains(.firstSaveTick()))
        #expect(state.presentation.capture?.isCommitting == true)
        return state
    }

    private static func press(_ key: Key, in state: inout AppState) throws -> [AppEffect] {
        state.send(try #require(KeyMap.action(for: key, in: state), "\(key) means something while saving"))
    }

    private static func line(_ state: AppState) -> String? { state.presentation.capture?.saving?.line(ellipsis: "…") }

    @Test("F1 shows the capture's keys at once and closes them; ? does too")
    func helpActs() throws {
        var state = try Self.savingPhotos()
        #expect(try Self.press(.function(1), in: &state).commits.isEmpty)
        #expect(state.presentation.capture?.isShowingKeys == true)
        #expect(state.focus == .capture(.keys))
        _ = try Self.press(.function(1), in: &state)
        #expect(state.presentation.capture?.isShowingKeys == false)
        _ = try Self.press(.character("?"), in: &state)
        #expect(state.presentation.capture?.isShowingKeys == true)
        _ = try Self.press(.escape, in: &state)
        #expect(state.presentation.capture?.isShowingKeys == false)
        #expect(state.presentation.capture?.isCommitting == true)
    }

    @Test("the photo viewer opens while saving, steps, and goes back; the save's outcome reaches the capture under it")
    func viewerActs() throws {
        var state = try Self.savingPhotos()
        _ = try Self.press(.function(3), in: &state)
        let viewer = try #require(state.presentation.viewer)
        #expect(viewer.position == "2/2")
        _ = try Self.press(.left, in: &state)
        #expect(state.presentation.viewer?.position == "1/2")
        // A tick and the failure arrive while the viewer shows.
        #expect(state.send(.capture(.saveWaited(token: 1, seconds: 1))).contains(.schedule(afterMilliseconds: 1000, action: .capture(.saveWaited(token: 1, seconds: 2)))))
        _ = state.send(.capture(.commitFailed("Cannot reach PostgreSQL.")))
        _ = try Self.press(.escape, in: &state)
        let capture = try #require(state.presentation.capture)
        #expect(state.presentation == .fullScreenCapture(capture))
        #expect(!capture.isCommitting)
        #expect(capture.notice == "Cannot reach PostgreSQL.")
        #expect(capture.photos.count == 2)
    }

    @Test("a save that lands while the viewer shows closes capture as Done does")
    func committedUnderTheViewer() throws {
        var state = try Self.savingPhotos()
        _ = try Self.press(.function(3), in: &state)
        let submission = CaptureSubmission(kind: .photos, photos: [stagedPhoto(0), stagedPhoto(1)])
        _ = state.send(.captureCommitted(recordID: 7, submission: submission))
        #expect(state.presentation == .none)
        #expect(state.status?.text.hasPrefix("Saved") == true)
    }

    @Test("Esc explains on the message line and closes nothing")
    func escapeExplains() throws {
        var state = try Self.savingPhotos()
        #expect(try Self.press(.escape, in: &state) == [])
        #expect(state.presentation.capture?.isCommitting == true)
        #expect(state.presentation.capture?.isConfirmingClose == false)
        #expect(Self.line(state) == "Saving… — Esc waits: saving is under way; your capture is safe as a draft")
    }

    @Test("keys that would change the capture are refused with a sentence", arguments: [Key.control("x"), .character("a"), .backspace, .tab, .enter])
    func changesAreRefused(key: Key) throws {
        var state = try Self.savingPhotos()
        let photos = state.presentation.capture?.photos
        let effects = try Self.press(key, in: &state)
        #expect(effects.commits.isEmpty)
        #expect(!effects.contains { if case .unstagePhoto = $0 { true } else { false } })
        #expect(state.presentation.capture?.photos == photos)
        #expect(Self.line(state) == "Saving… — the capture cannot change while it is being saved")
    }

    @Test("Ctrl-D again commits nothing more and says so")
    func doneAgain() throws {
        var state = try Self.savingPhotos()
        #expect(try Self.press(.control("d"), in: &state) == [])
        #expect(Self.line(state) == "Saving… — Done is already saving this capture")
    }

    @Test("the runtime's ticks count the wait: after 3 s the message line says how long, each tick asking for the next")
    func waitingLine() throws {
        var state = try Self.savingPhotos()
        for second in 1...3 {
            let effects = state.send(.capture(.saveWaited(token: 1, seconds: second)))
            #expect(effects.contains(.schedule(afterMilliseconds: 1000, action: .capture(.saveWaited(token: 1, seconds: second + 1)))))
        }
        #expect(Self.line(state) == "Saving… 3 s — the database has not answered; your capture is kept as a draft")
        _ = state.send(.captureCommitted(recordID: 3, submission: CaptureSubmission(kind: .photos, photos: [stagedPhoto(0), stagedPhoto(1)])))
        #expect(state.send(.capture(.saveWaited(token: 1, seconds: 4))) == [], "capture closed: the ticks stop")
    }

    /// Every key the table names anywhere, and the printable ASCII characters.
    private static var everyKey: [Key] {
        let named = KeyContext.allCases.flatMap { KeyMap.defaultBindings(for: $0).flatMap(\.keys) }
        let printable = (32...126).compactMap(Unicode.Scalar.init).map { Key.character(Character($0)) }
        var seen: [Key] = []
        for key in named + printable where !seen.contains(key) { seen.append(key) }
        return seen
    }

    @Test("no key pressed while saving asks the store for anything: none can queue behind the save it waits on")
    func noKeyWaitsOnTheStore() throws {
        let saving = try Self.savingPhotos()
        var asked: [String] = []
        for key in Self.everyKey {
            var state = saving
            guard let action = KeyMap.action(for: key, in: state) else { continue }
            // Quitting ends the session (its own bounded wait for the save, at exit).
            if action == .quitRequested || action == .interruptRequested { continue }
            let storeCalls = state.send(action).filter(\.callsTheStore)
            if !storeCalls.isEmpty { asked.append("\(key): \(storeCalls)") }
            #expect(state.presentation.capture?.isCommitting == true || state.presentation.viewer != nil, "\(key) left the save")
        }
        #expect(asked.isEmpty, "\(asked)")
    }
}

extension AppEffect {
    /// An effect the runtime performs against the store (on its storage queue).
    var callsTheStore: Bool {
        switch self {
        case .loadInbox, .loadHistory, .commitCapture, .lookUpProduct, .saveSettings, .resumeDraft, .discardDraft, .loadRecordDetail,
            .deleteRecord, .deleteAllRecords, .reopenRequest, .removeRequest, .search, .loadExportLine:
            true
        case .saveDraft, .schedule, .stagePhoto, .unstagePhoto, .completePath, .discardStaging, .loadPreview, .cancelPreview, .redraw,
            .copyToClipboard, .quit:
            false
        }
    }
}
