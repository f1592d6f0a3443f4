import CaptureMode
import Domain
import Foundation
import PropertyBased
import TestSupport
import Testing

@testable import TabShell

// Random sessions against the shell's reducer, checking the navigation invariants after every step.
// PropertyBased prints a seed on failure; add `.fixedSeed("…")` to the test to replay that session.

// MARK: - The alphabet

/// One step of a random session. Most steps are a plain `AppAction`; a few are the front end
/// answering an effect it was given (a timer firing with its token, storage delivering a page or
/// finishing a commit), so they are resolved against what the front end has been asked to do.
struct SessionStep: Sendable, CustomStringConvertible {
    enum Kind: CaseIterable, Sendable {
        case chooseContentTab, chooseCreate, nextTab, previousTab, listMove, rowActivated, choiceToggled
        case escape, help, alertDismissed, back, resize, quit
        case captureKind, capturePicker, typeDigit, typeCode, pasteCode, typeText, enter, done, close, edit
        case autoAdvanceStale, autoAdvanceFires
        case settingCycled, snapBackCycled, gatingCycled
        case inboxLoaded, inboxReloaded, historyPageDelivered, historyLoadedRandom, storageFailed
        case commitAnswered, captureCommittedRandom, captureCommitFailedRandom
        case browseMode, deleteRequested, clearAllRequested, alertButton, rowClicked
        case searchOpened, searchTyped, searchEdited, searchAnswered, searchAnsweredStale
        case detailAnswered, deleteAnswered, clearAllAnswered, highlightFires, highlightStale
        case typePhotoPath, photoAnswered, changedElsewhere
        case viewPhoto, viewerStep, previewAnswered, previewAnsweredStale

        /// How often the step comes up, relative to the others.
        var weight: Int {
            switch self {
            case .chooseContentTab, .chooseCreate, .listMove, .commitAnswered, .searchTyped, .searchAnswered,
                .detailAnswered, .deleteAnswered:
                4
            case .rowActivated, .escape, .captureKind, .typeDigit, .typeCode, .pasteCode, .enter, .done,
                .autoAdvanceFires, .historyPageDelivered, .searchOpened, .browseMode, .deleteRequested, .alertButton:
                3
            case .nextTab, .previousTab, .choiceToggled, .alertDismissed, .resize, .capturePicker, .typeText,
                .close, .edit, .settingCycled, .snapBackCycled, .inboxLoaded,
                .rowClicked, .searchEdited, .highlightFires:
                2
            case .typePhotoPath, .photoAnswered:
                4
            case .viewPhoto, .previewAnswered:
                3
            case .viewerStep:
                2
            case .previewAnsweredStale:
                1
            case .changedElsewhere:
                1
            case .help, .back, .quit, .autoAdvanceStale, .gatingCycled, .inboxReloaded, .historyLoadedRandom,
                .storageFailed, .captureCommittedRandom, .captureCommitFailedRandom,
                .clearAllRequested, .searchAnsweredStale, .clearAllAnswered, .highlightStale:
                1
            }
        }

        static let weighted: [Kind] = allCases.flatMap { Array(repeating: $0, count: $0.weight) }
    }

    var kind: Kind
    /// The step's parameter: which tab, which code, which size…
    var n: Int

    var description: String { "\(kind)(\(n))" }

    static let generator = zip(Gen.int(in: 0...(Kind.weighted.count - 1)), Gen.int(in: 0...9_999))
        .map { SessionStep(kind: Kind.weighted[$0], n: $1) }

    static let codes = [
        "4006381333931", "96385074", "036000291452", "10012345678902", "4006381333932",
        "12345", "hello-1", "", "5901234123457\r\n",
    ]
    static let rows = [1, 2, 3, 5, 7, 8, 10, 12, 24, 40, 60]
    static let columns = [1, 10, 23, 24, 40, 80, 200]

    /// A small Inbox drawn from `n`: up to 5 requests of any kind, mostly pending.
    static func inbox(_ n: Int) -> [InboxRequest] {
        let firstID = Int64(1 + (n / 6) % 3)
        return (0..<(n % 6)).map { i in
            request(
                firstID + Int64(i),
                kind: CaptureKind.allCases[(n / (7 + i)) % CaptureKind.allCases.count],
                status: (n / (3 + i)) % 3 == 0 ? .done : .pending
            )
        }
    }
}

// MARK: - The front end

/// What a minimal front end remembers between steps: the effects it has not answered yet and
/// what "storage" holds.
struct SimulatedFrontEnd {
    var historyTotal = 250
    var inbox: [InboxRequest] = []
    var pagesInFlight: [HistoryPageRequest] = []
    var timers: [Int] = []
    var commitInFlight: CaptureSubmission?
    var nextRecordID: Int64 = 1
    var searchesInFlight: [String] = []
    var detailsInFlight: [Int64] = []
    var deletesInFlight: [Int64] = []
    var clearAllInFlight = false
    var highlightTimers: [Int] = []
    /// Photo copies asked for and not answered yet, and the files in the staging folder.
    var stagingInFlight: [String] = []
    var stagedOnDisk: [StagedPhoto] = []
    var nextPhoto = 1
    /// Records "storage" holds because a Done succeeded.
    var recordsCommitted = 0
    /// Previews asked for and neither answered nor cancelled, by ticket.
    var previewsInFlight: [(request: PreviewRequest, ticket: Int)] = []

    mutating func perform(_ effects: [AppEffect]) {
        for effect in effects {
            switch effect {
            case let .loadHistory(request): pagesInFlight.append(request)
            case let .schedule(_, .capture(.autoAdvanceElapsed(token))): timers.append(token)
            case let .schedule(_, .inbox(.highlightEnded(token))): highlightTimers.append(token)
            case .schedule, .redraw: break
            case .saveDraft:
                // Once Done commits, no draft of that capture is written: the commit spends its
                // staging folder, and a draft after it would be offered back as a duplicate.
                #expect(commitInFlight == nil, "a draft was written while Done commits")
            case let .commitCapture(submission): commitInFlight = submission
            case .loadInbox, .saveSettings, .quit, .lookUpProduct, .reopenRequest, .removeRequest: break
            case let .stagePhoto(path, _): stagingInFlight.append(path)
            case let .unstagePhoto(photo): stagedOnDisk.removeAll { $0 == photo }
            case .discardStaging:
                // The stager cancels copies in flight and deletes the folder.
                stagingInFlight = []
                stagedOnDisk = []
            case .completePath, .resumeDraft, .discardDraft: break
            case .copyToClipboard, .loadExportLine: break
            case let .loadRecordDetail(id): detailsInFlight.append(id)
            case let .deleteRecord(id): deletesInFlight.append(id)
            case .deleteAllRecords: clearAllInFlight = true
            case let .search(query, _): searchesInFlight.append(query)
            case let .loadPreview(request, ticket): previewsInFlight.append((request, ticket))
            case let .cancelPreview(ticket): previewsInFlight.removeAll { $0.ticket == ticket }
            }
        }
    }

    /// What a typing step does in the search sheet, or nil for steps that are not typing.
    func searchAction(for step: SessionStep) -> AppAction? {
        let n = step.n
        switch step.kind {
        case .typeDigit: return .search(.edited(.typed(String(n % 10))))
        case .typeCode: return .search(.edited(.typed(SessionStep.codes[n % SessionStep.codes.count])))
        case .pasteCode: return .search(.edited(.pasted(SessionStep.codes[n % SessionStep.codes.count])))
        case .typeText: return .search(.edited(.typed(["q", "hello", " ", "漢", "%", "_"][n % 6])))
        case .edit: return .search(.edited([.backspace, .deleteForward, .moved(.left), .moved(.end)][n % 4]))
        case .enter: return .rowActivated
        default: return nil
        }
    }

    /// The action for `step` in `state`, or nil when the step has nothing to answer.
    mutating func action(for step: SessionStep, in state: AppState) -> AppAction? {
        let n = step.n
        // Keys go to whatever is showing, as through `KeyMap`: the typing steps type into the
        // search field while the search sheet shows, and Enter presses a question's default button.
        if state.presentation.search != nil, let action = searchAction(for: step) { return action }
        if state.presentation.alert?.isConfirmation == true, step.kind == .enter {
            return KeyMap.action(for: .enter, in: state)
        }
        switch step.kind {
        case .chooseContentTab: return .tabChosen(Tab.contentTabs[n % Tab.contentTabs.count])
        case .chooseCreate: return .tabChosen(.create)
        case .nextTab: return .nextTabRequested
        case .previousTab: return .previousTabRequested
        case .listMove: return .listMoved(ListMove.allCases[n % ListMove.allCases.count])
        case .rowActivated: return .rowActivated
        case .choiceToggled: return .inbox(.choiceToggled)
        case .escape: return .escapePressed
        case .help: return .helpRequested
        case .alertDismissed: return .alertDismissed
        case .back: return .history(.backRequested)
        case .resize:
            // One resize in four may go below the minimum, where input does nothing; the rest
            // stay usable, so sessions keep reaching deeper screens.
            let tiny = n % 4 == 0
            let rowChoices = tiny ? SessionStep.rows : SessionStep.rows.filter { $0 >= Layout.minimumSize.rows }
            let columnChoices = tiny ? SessionStep.columns : SessionStep.columns.filter { $0 >= Layout.minimumSize.columns }
            let rows = rowChoices[(n / 4) % rowChoices.count]
            let columns = columnChoices[(n / 4 / rowChoices.count) % columnChoices.count]
            return .resized(ScreenSize(rows: rows, columns: columns))
        case .quit: return .quitRequested
        case .captureKind: return .capture(.kindChosen(CaptureKind.allCases[n % CaptureKind.allCases.count]))
        case .capturePicker: return .capture([.pickerCursorMoved(by: 1), .pickerCursorMoved(by: -1), .pickerConfirmed][n % 3])
        case .typeDigit: return .capture(.textTyped(String(n % 10)))
        case .typeCode: return .capture(.textTyped(SessionStep.codes[n % SessionStep.codes.count]))
        case .pasteCode: return .capture(.textPasted(SessionStep.codes[n % SessionStep.codes.count]))
        case .typeText: return .capture(.textTyped(["q", "hello", "\n", "漢", " ", "👩‍👩‍👧"][n % 6]))
        case .enter: return .capture(.enterPressed)
        case .done: return .capture(.doneTapped)
        case .close: return .capture(.closeTapped)
        case .edit:
            let motions: [TextBuffer.Motion] = [.left, .right, .up, .down, .home, .end]
            return n % 5 == 0
                ? .capture(.backspacePressed)
                : n % 5 == 1
                    ? .capture(.deletePressed)
                    : n % 5 == 2
                        ? .capture(.deleteToLineStartPressed)
                        : .capture(.cursorMoved(motions[n % motions.count]))
        case .autoAdvanceStale: return .capture(.autoAdvanceElapsed(token: n % 5))
        case .autoAdvanceFires:
            guard !timers.isEmpty else { return nil }
            return .capture(.autoAdvanceElapsed(token: timers.removeFirst()))
        case .settingCycled: return .settings(.rowCycled(SettingsRow.allCases[n % SettingsRow.allCases.count], forward: n % 2 == 0))
        case .snapBackCycled: return .settings(.rowCycled(.snapBackTarget, forward: true))
        case .gatingCycled: return .settings(.rowCycled(.captureGating, forward: true))
        case .inboxLoaded:
            inbox = SessionStep.inbox(n)
            return .inbox(.loaded(snapshot(inbox)))
        case .inboxReloaded: return .inbox(.loaded(snapshot(inbox)))
        case .historyPageDelivered:
            guard !pagesInFlight.isEmpty else { return nil }
            return .history(.pageLoaded(page(for: pagesInFlight.removeFirst(), total: historyTotal)))
        case .historyLoadedRandom:
            historyTotal = [0, 1, 3, 50, 1000][n % 5]
            pagesInFlight = []
            let start = historyTotal == 0 ? 0 : (n / 5) % historyTotal
            let mode = n % 3 == 0 ? HistoryBrowseMode.allCases[n % 3] : state.history.browseMode
            return .history(.pageLoaded(page(for: HistoryPageRequest(start: start, count: 1 + n % 60, mode: mode), total: historyTotal)))
        case .storageFailed:
            pagesInFlight = []
            return .storageFailed("Storage failed (\(n)).")
        case .commitAnswered:
            guard let submission = commitInFlight else { return nil }
            commitInFlight = nil
            guard n % 4 != 0 else { return .capture(.commitFailed("The database is locked.")) }
            historyTotal += 1
            recordsCommitted += 1
            // Done moved the submitted photos into the media folder; the rest of the staging
            // folder goes with the session.
            stagedOnDisk = []
            stagingInFlight = []
            if let id = submission.requestID, let index = inbox.firstIndex(where: { $0.id == id }) {
                inbox[index].status = .done
            }
            defer { nextRecordID += 1 }
            return .captureCommitted(recordID: nextRecordID, submission: submission)
        case .captureCommittedRandom:
            // Stands for the answer to whatever commit is in flight (the app commits
            // synchronously: one answer per commit).
            commitInFlight = nil
            historyTotal += 1
            let submission = CaptureSubmission(kind: .barcode, barcode: validEAN13, requestID: n % 2 == 0 ? nil : Int64(n % 4))
            defer { nextRecordID += 1 }
            return .captureCommitted(recordID: nextRecordID, submission: submission)
        case .captureCommitFailedRandom:
            commitInFlight = nil
            return .capture(.commitFailed("Failed (\(n))."))
        case .browseMode: return .history(.browseModeCycled)
        case .deleteRequested: return .history(.deleteRequested)
        case .clearAllRequested: return n % 2 == 0 ? .history(.clearAllRequested) : .settings(.rowCycled(.clearHistory, forward: true))
        case .alertButton: return .alertButtonPressed(n % 5 == 4 ? 2 : n % 2)
        case .rowClicked: return .rowClicked(n % 12)
        case .searchOpened: return .searchRequested
        case .searchTyped: return .search(.edited(.typed(["4", "0", "milk", " ", "%", "漢", "q"][n % 7])))
        case .searchEdited:
            let edits: [TextEdit] = [.backspace, .deleteForward, .deleteToLineStart, .moved(.left), .moved(.home), .moved(.end), .pasted("4006\n381")]
            return .search(.edited(edits[n % edits.count]))
        case .searchAnswered:
            guard !searchesInFlight.isEmpty else { return nil }
            // In order (older answers are stale by now), or only the latest (the others were dropped).
            let query = n % 2 == 0 ? searchesInFlight.removeFirst() : searchesInFlight.removeLast()
            if n % 2 == 1 { searchesInFlight = [] }
            let rows = (0..<min(historyTotal, n % 10 == 0 ? 0 : 1 + n % 70)).map { historyRow(at: $0, total: historyTotal) }
            return .search(.resultsLoaded(query: query, rows: rows))
        case .searchAnsweredStale:
            return .search(.resultsLoaded(query: "stale \(n)", rows: [historyRow(at: 0, total: 1)]))
        case .detailAnswered:
            guard !detailsInFlight.isEmpty else { return nil }
            let id = detailsInFlight.removeFirst()
            guard n % 6 != 0 else { return .history(.detailLoaded(id: id, detail: nil)) }
            var record = historyRow(at: 0, total: 1)
            record.id = id
            record.kind = CaptureKind.allCases[n % CaptureKind.allCases.count]
            record.note = n % 2 == 0 ? String(repeating: "a long note ", count: n % 40) : nil
            let photos = (0..<(n % 4)).map {
                RecordPhoto(
                    id: Int64($0), position: $0, originalName: "p\($0).png", format: .png, pixelWidth: 4, pixelHeight: 3, byteSize: 99,
                    storedName: n % 7 == 0 ? "" : "r\(id)-\($0).png"
                )
            }
            return .history(.detailLoaded(id: id, detail: RecordDetail(record: record, photos: photos)))
        case .deleteAnswered:
            guard !deletesInFlight.isEmpty else { return nil }
            historyTotal = max(0, historyTotal - 1)
            return .history(.recordDeleted(deletesInFlight.removeFirst()))
        case .clearAllAnswered:
            guard clearAllInFlight else { return nil }
            clearAllInFlight = false
            defer { historyTotal = 0 }
            return .history(.allRecordsDeleted(count: historyTotal))
        case .highlightFires:
            guard !highlightTimers.isEmpty else { return nil }
            return .inbox(.highlightEnded(token: highlightTimers.removeFirst()))
        case .highlightStale: return .inbox(.highlightEnded(token: n % 4))
        case .typePhotoPath:
            return .capture(.textTyped(["~/shot.png", "/tmp/a b.jpg", "../x.gif", "\u{1B}[31m.png"][n % 4]))
        case .photoAnswered:
            guard !stagingInFlight.isEmpty else { return nil }
            let path = stagingInFlight.removeFirst()
            guard n % 5 != 0 else { return .capture(.photoStagingFailed("\(path) is not an image.")) }
            let photo = StagedPhoto(
                storedName: "staged-\(nextPhoto).png", originalName: path, format: .png,
                pixelWidth: 4, pixelHeight: 3, byteSize: Int64(100 + n))
            nextPhoto += 1
            stagedOnDisk.append(photo)
            return .capture(.photoStaged(photo))
        case .changedElsewhere: return .databaseChangedElsewhere
        case .viewPhoto: return .photoViewRequested
        case .viewerStep: return .viewerPhotoStepped(by: n % 2 == 0 ? 1 : -1)
        case .previewAnswered:
            guard !previewsInFlight.isEmpty else { return nil }
            let (request, ticket) = previewsInFlight.removeFirst()
            return .previewLoaded(request, ticket: ticket, previewOutcome(for: request, n: n))
        case .previewAnsweredStale:
            // An answer to a ticket already answered or cancelled: dropped by the model.
            let request =
                state.previews.wanted.first
                ?? PreviewRequest(
                    source: .staged(storedName: "gone.png"), box: CellBox(columns: 4, rows: 2),
                    style: PreviewStyle(symbols: .blocks, colors: .palette256))
            return .previewLoaded(request, ticket: -(n % 3), previewOutcome(for: request, n: n))
        }
    }
}

extension ShellInvariants {
    /// Previews: asked for only while on, exactly what the screen shows, each answered or
    /// cancelled once; the viewer only over what it can be opened from, gone with its record.
    static func previewViolations(effects: [AppEffect], after: AppState, frontEnd: SimulatedFrontEnd) -> [String] {
        var problems: [String] = []
        let loads = effects.compactMap { effect -> (PreviewRequest, Int)? in
            if case let .loadPreview(request, ticket) = effect { return (request, ticket) }
            return nil
        }
        if after.previewStyle == nil, !loads.isEmpty { problems.append("previews asked for while off") }
        if after.previewStyle == nil, after.presentation.viewer != nil { problems.append("viewer showing with previews off") }
        for (request, ticket) in loads where after.previews.status(of: request) != .loading(ticket: ticket) {
            problems.append("asked for \(request.source) with ticket \(ticket) but holds \(String(describing: after.previews.status(of: request)))")
        }
        if after.previews.wanted != after.wantedPreviews { problems.append("previews wanted are not what the screen shows") }
        for request in after.previews.wanted where after.previews.status(of: request) == nil {
            problems.append("\(request.source) wanted but not held")
        }
        let loading = Set(
            after.previews.entries.values.compactMap { status -> Int? in
                if case let .loading(ticket) = status { return ticket }
                return nil
            })
        if loading != Set(frontEnd.previewsInFlight.map(\.ticket)) {
            problems.append("loading tickets \(loading.sorted()) but in flight \(frontEnd.previewsInFlight.map(\.ticket).sorted())")
        }
        if case let .viewer(viewer, over) = after.presentation {
            switch over {
            case .none, .fullScreenCapture: break
            default: problems.append("viewer over \(over.summary)")
            }
            if let recordID = viewer.recordID, after.history.detail?.record.id != recordID {
                problems.append("viewer of record \(recordID) without its detail")
            }
        }
        return problems
    }
}

extension SimulatedFrontEnd {
    /// A picture of the box's size, or (one time in five) the sentence of a broken file.
    func previewOutcome(for request: PreviewRequest, n: Int) -> PreviewOutcome {
        guard n % 5 != 0 else { return .failed("This photo is damaged: it ends early.") }
        let size = CellBox(columns: max(1, request.box.columns - n % 2), rows: max(1, request.box.rows))
        let cells = Array(repeating: PreviewImage.Cell(character: "▀", foreground: PreviewColor(rgb: 0xFF0000, index256: 196)), count: size.columns * size.rows)
        return PreviewImage(size: size, cells: cells).map(PreviewOutcome.image) ?? .failed("no image")
    }
}

// MARK: - Invariants

enum ShellInvariants {
    /// What storage would hold: Close leaves nothing staged, a Done adds exactly one record.
    static func storageViolations(
        before: AppState, action: AppAction, effects: [AppEffect], after: AppState,
        frontEndBefore: SimulatedFrontEnd, frontEnd: SimulatedFrontEnd
    ) -> [String] {
        var problems: [String] = []
        let closed = before.presentation.capture != nil && after.presentation.capture == nil
        if case .captureCommitted = action {
            if after.history.totalCount != before.history.totalCount + 1 {
                problems.append("a Done changed the record count by \(after.history.totalCount - before.history.totalCount)")
            }
            if !closed, before.presentation.capture != nil { problems.append("a committed capture stayed open") }
        } else if closed {
            // Closed any other way (Close, Esc, Discard): nothing may stay in the staging folder.
            if !frontEnd.stagedOnDisk.isEmpty || !frontEnd.stagingInFlight.isEmpty {
                problems.append("capture closed with \(frontEnd.stagedOnDisk.count) photos staged and \(frontEnd.stagingInFlight.count) copies in flight")
            }
        }
        // One Done, one commit: never a second while the first is in flight.
        if !effects.commits.isEmpty, frontEndBefore.commitInFlight != nil {
            problems.append("a second commit while one was in flight")
        }
        if frontEnd.recordsCommitted - frontEndBefore.recordsCommitted > 1 {
            problems.append("one step committed \(frontEnd.recordsCommitted - frontEndBefore.recordsCommitted) records")
        }
        return problems
    }

    /// What is wrong after `action` took `before` to `after`, if anything.
    static func violations(before: AppState, action: AppAction, effects: [AppEffect], after: AppState) -> [String] {
        var problems: [String] = []

        // (0) Below the minimum size only the notice shows: a key, click or wheel changes nothing.
        if before.layout.isTooSmall, action.isUserInput {
            if after != before || !effects.isEmpty { problems.append("\(action) acted below the minimum size, unseen") }
            return problems
        }

        // (1) The action tab is never selected: `selectedTab` is a `ContentTab`, so its type says so.

        // (2) Leaving capture lands on the snap-back target as it was before the step.
        if before.presentation.capture != nil, after.presentation.capture == nil {
            let target: ContentTab = before.settings.snapBackTarget == .history ? .history : before.selectedTab
            if after.selectedTab != target {
                problems.append("capture closed onto \(after.selectedTab), expected \(target)")
            }
        }

        // (3) Switching tabs leaves every tab's own state alone (History may only ask for its rows;
        //     the Inbox may only start showing the highlight it was holding).
        if isTabSwitch(action) {
            // A tab switch restores a minimized tab bar; the lists follow that size change.
            var before = before
            if after.isTabBarMinimized != before.isTabBarMinimized { before.applyTabBarSize(minimized: after.isTabBarMinimized) }
            var history = after.history
            if after.selectedTab == .history { history.pendingLoad = before.history.pendingLoad }
            var inbox = after.inbox
            if after.selectedTab == .inbox { inbox.highlight?.isShowing = before.inbox.highlight?.isShowing ?? false }
            if inbox != before.inbox { problems.append("tab switch changed the Inbox state") }
            if history != before.history { problems.append("tab switch changed the History state") }
            // The setting changed last may be forgotten: screen-reader mode announces the tab again.
            var settingsScreen = before.settingsScreen
            if after.settingsScreen.changedRow == nil { settingsScreen.changedRow = nil }
            if after.settingsScreen != settingsScreen { problems.append("tab switch changed the Settings state") }
        }

        // (4) Cursors stay within their lists and visible in the current layout.
        let layout = after.layout
        problems += listProblems("Inbox", after.inbox.list, count: after.inbox.requests.count, viewport: layout.inboxListRows)
        problems += listProblems("History", after.history.list, count: after.history.totalCount, viewport: layout.historyListRows)
        problems += listProblems(
            "Settings", after.settingsScreen.list, count: SettingsRow.allCases.count, viewport: layout.settingsListRows
        )

        // (5) One presentation: capture never inside capture, an alert never over an alert.
        if captureCount(after.presentation) > 1 { problems.append("capture nested in capture") }
        if case let .alert(_, over) = after.presentation, over.alert != nil {
            problems.append("alert over an alert")
        }

        // A commit is asked for only from a showing capture, which then waits for the outcome.
        if !effects.commits.isEmpty {
            if before.presentation.capture == nil { problems.append("commit without a capture") }
            if after.presentation.capture?.isCommitting != true { problems.append("commit asked for but capture not committing") }
            if effects.commits.count > 1 { problems.append("\(effects.commits.count) commits in one step") }
        }

        // (6) Esc on the search sheet closes it and changes nothing else (it remembers the query).
        if let search = before.presentation.search, action == .escapePressed {
            var expected = before
            expected.presentation = .none
            expected.lastSearch.query = search.query.text
            expected.lastSearch.results = search.results
            expected.lastSearch.resultsQuery = search.resultsQuery
            if after != expected { problems.append("Esc on the search sheet changed more than the sheet") }
        }

        // (7) Opening a search result lands on History's detail of that record, other tabs untouched.
        if let search = before.presentation.search, after.presentation.search == nil, isSearchNavigation(action) {
            if let row = search.highlightedResult, action == .rowActivated || action == .rowClicked(search.list.cursor) {
                if after.selectedTab != .history { problems.append("search result opened on \(after.selectedTab)") }
                if after.history.detail?.record != row { problems.append("search result did not open its detail") }
                if !effects.contains(.loadRecordDetail(row.id)) { problems.append("search result detail not loaded") }
            }
            if after.inbox != before.inbox { problems.append("closing search changed the Inbox state") }
            if after.settingsScreen != before.settingsScreen { problems.append("closing search changed the Settings state") }
        }

        // (8) Records are deleted only by a confirmation's button, and only what it said.
        for effect in effects {
            let asked: AlertAction
            switch effect {
            case let .deleteRecord(id): asked = .deleteRecord(id)
            case .deleteAllRecords: asked = .deleteAllRecords
            default: continue
            }
            guard case let .alertButtonPressed(index) = action, let alert = before.presentation.alert,
                alert.buttons.indices.contains(index), alert.buttons[index].action == asked
            else {
                problems.append("\(effect) without its confirmation")
                continue
            }
            if after.presentation.alert != nil { problems.append("\(effect) with the confirmation still showing") }
        }
        if let alert = after.presentation.alert, alert.isConfirmation, after.presentation != .alert(alert, over: .none) {
            problems.append("a confirmation over \(after.presentation.summary)")
        }

        // (9) A detail's scroll stays between its top and its last screenful; History reads pages
        //     only in the mode showing.
        if let detail = after.history.detail {
            let maximum = HistoryDetailLayout(layout: after.layout).maximumScrollOffset(of: detail)
            if !(0...maximum).contains(detail.scrollOffset) {
                problems.append("detail scrolled to \(detail.scrollOffset), last is \(maximum)")
            }
        }
        if let pending = after.history.pendingLoad, pending.mode != after.history.browseMode {
            problems.append("pending read in \(pending.mode) while showing \(after.history.browseMode)")
        }
        for request in effects.historyRequests where request.mode != after.history.browseMode {
            problems.append("read asked in \(request.mode) while showing \(after.history.browseMode)")
        }

        // (10) The answered request's highlight shows only on the Inbox, and its timer starts then.
        if let highlight = after.inbox.highlight, highlight.isShowing, before.inbox.highlight?.isShowing != true {
            if after.selectedTab != .inbox { problems.append("highlight started on \(after.selectedTab)") }
            if !effects.contains(.schedule(afterMilliseconds: RequestHighlight.milliseconds, action: .inbox(.highlightEnded(token: highlight.token)))) {
                problems.append("highlight started without its timer")
            }
        }

        // Moving around never asks again for the read already pending. (A commit changes the data,
        // so re-reading is right there; a late page re-asking is covered by HistoryPagingTests.)
        if isNavigation(action), let pending = before.history.pendingLoad, effects.historyRequests.contains(pending) {
            problems.append("asked again for pending \(pending)")
        }
        return problems
    }

    static func isTabSwitch(_ action: AppAction) -> Bool {
        switch action {
        case .tabChosen, .nextTabRequested, .previousTabRequested: true
        default: false
        }
    }

    /// What the user does to leave the search sheet other than Esc or a tab.
    static func isSearchNavigation(_ action: AppAction) -> Bool {
        switch action {
        case .rowActivated, .rowClicked, .helpRequested: true
        default: false
        }
    }

    static func isNavigation(_ action: AppAction) -> Bool {
        switch action {
        case .tabChosen, .nextTabRequested, .previousTabRequested, .listMoved, .rowActivated, .history(.backRequested),
            .escapePressed, .helpRequested, .alertDismissed, .resized, .settings(.rowCycled):
            true
        default: false
        }
    }

    static func listProblems(_ name: String, _ list: ListPosition, count: Int, viewport: Int) -> [String] {
        if count == 0 {
            return list == ListPosition() ? [] : ["\(name) list \(list) but empty"]
        }
        let viewport = max(1, viewport)
        var problems: [String] = []
        if !(0..<count).contains(list.cursor) { problems.append("\(name) cursor \(list.cursor) outside 0..<\(count)") }
        if list.scrollOffset < 0 || !(list.scrollOffset..<(list.scrollOffset + viewport)).contains(list.cursor) {
            problems.append("\(name) cursor \(list.cursor) not visible from \(list.scrollOffset) in \(viewport) rows")
        }
        return problems
    }

    static func captureCount(_ presentation: Presentation) -> Int {
        switch presentation {
        case .fullScreenCapture: 1
        case let .alert(_, over), let .viewer(_, over): captureCount(over)
        case .none, .sheet: 0
        }
    }
}

// MARK: - The property

@Suite("Shell: random sessions", .tags(.stress))
struct AppPropertyTests {
    /// 2,000 sessions of 200–400 steps each in `make test` (about half a million steps);
    /// `make stress` sets TABSHELL_PROPERTY_RUNS=10000 (~3 million steps).
    static let runs = ProcessInfo.processInfo.environment["TABSHELL_PROPERTY_RUNS"].flatMap { Int($0) } ?? 2_000
    static let steps = 200...400

    /// How often the sessions reached the situations the invariants are about, so a generator
    /// that stopped reaching them fails the test instead of passing vacuously.
    struct Coverage {
        var capturesOpened = 0, capturesClosed = 0, commits = 0, snapBacksToHistory = 0
        var tabSwitches = 0, gatingAlerts = 0, historyReads = 0, tinyLayouts = 0
        var searchesOpened = 0, searchEscapes = 0, searchResultsOpened = 0, searches = 0
        var modeSwitches = 0, detailsLoaded = 0, deletions = 0, clearAlls = 0, highlightsShown = 0
        var photosStaged = 0, closesWithPhotos = 0, steps = 0
        var viewersOpened = 0, viewerSteps = 0, previewsShown = 0, previewLoads = 0
    }

    @Test("random sessions keep the tab-shell invariants after every step")
    func randomSessionsKeepInvariants() async {
        var coverage = Coverage()
        var sawViolation = false
        await propertyCheck(count: Self.runs, input: SessionStep.generator.array(of: Self.steps)) { steps in
            var state = AppState(size: ScreenSize(rows: 24, columns: 80))
            // Previews on, as in a terminal (Settings' cycling turns them off and on again).
            state.previewTerminal = PreviewTerminal(symbols: .blocks, has256Colors: true, automaticReason: "inside tmux")
            var frontEnd = SimulatedFrontEnd()
            frontEnd.perform(state.send(.started))
            // The steps as values: a failure prints the last ones (describing every step as it
            // went, through reflection, took ~40 % of this test's time).
            var trail: [(SessionStep, AppAction)] = []

            for step in steps {
                guard let action = frontEnd.action(for: step, in: state) else { continue }
                let before = state
                let frontEndBefore = frontEnd
                let effects = state.send(action)
                frontEnd.perform(effects)
                trail.append((step, action))
                coverage.steps += 1

                var problems = ShellInvariants.violations(before: before, action: action, effects: effects, after: state)
                problems += ShellInvariants.storageViolations(
                    before: before, action: action, effects: effects, after: state,
                    frontEndBefore: frontEndBefore, frontEnd: frontEnd)
                problems += ShellInvariants.previewViolations(effects: effects, after: state, frontEnd: frontEnd)
                guard problems.isEmpty else {
                    sawViolation = true
                    Issue.record(
                        """
                        After step \(trail.count): \(problems.joined(separator: "; "))
                        before: tab \(before.selectedTab), presentation \(before.presentation.summary), \
                        settings \(before.settings.snapBackTarget)
                        after:  tab \(state.selectedTab), presentation \(state.presentation.summary)
                        last steps:
                        \(trail.suffix(25).map { "\($0) → \($1)" }.joined(separator: "\n"))
                        """)
                    return
                }

                if before.presentation.capture == nil, state.presentation.capture != nil { coverage.capturesOpened += 1 }
                if before.presentation.capture != nil, state.presentation.capture == nil {
                    coverage.capturesClosed += 1
                    if state.selectedTab == .history, before.selectedTab != .history { coverage.snapBacksToHistory += 1 }
                }
                if case .captureCommitted = action, before.presentation.capture != nil { coverage.commits += 1 }
                if ShellInvariants.isTabSwitch(action), state.selectedTab != before.selectedTab { coverage.tabSwitches += 1 }
                if state.presentation.alert == .requestRequired, before.presentation.alert == nil { coverage.gatingAlerts += 1 }
                coverage.historyReads += effects.historyRequests.count
                if state.layout.isTooSmall { coverage.tinyLayouts += 1 }
                if before.presentation.search == nil, state.presentation.search != nil { coverage.searchesOpened += 1 }
                if before.presentation.search != nil, action == .escapePressed { coverage.searchEscapes += 1 }
                if before.presentation.search != nil, state.presentation.search == nil, state.history.detail != nil,
                    effects.contains(where: { if case .loadRecordDetail = $0 { true } else { false } })
                {
                    coverage.searchResultsOpened += 1
                }
                coverage.searches += effects.searches.count
                if state.history.browseMode != before.history.browseMode { coverage.modeSwitches += 1 }
                if case .history(.detailLoaded(_, _?)) = action, before.history.detail != nil { coverage.detailsLoaded += 1 }
                coverage.deletions += effects.filter { if case .deleteRecord = $0 { true } else { false } }.count
                coverage.clearAlls += effects.filter { $0 == .deleteAllRecords }.count
                if state.inbox.highlight?.isShowing == true, before.inbox.highlight?.isShowing != true { coverage.highlightsShown += 1 }
                if case .capture(.photoStaged) = action { coverage.photosStaged += 1 }
                if before.presentation.viewer == nil, state.presentation.viewer != nil { coverage.viewersOpened += 1 }
                if let viewer = state.presentation.viewer, before.presentation.viewer?.index != viewer.index,
                    before.presentation.viewer != nil
                {
                    coverage.viewerSteps += 1
                }
                if case .previewLoaded = action, state.previews != before.previews { coverage.previewsShown += 1 }
                coverage.previewLoads += effects.filter { if case .loadPreview = $0 { true } else { false } }.count
                if !frontEndBefore.stagedOnDisk.isEmpty, before.presentation.capture != nil, state.presentation.capture == nil,
                    !isCommitted(action)
                {
                    coverage.closesWithPhotos += 1
                }
            }
        }
        guard !sawViolation else { return }
        #expect(coverage.capturesOpened > Self.runs / 4, "\(coverage)")
        #expect(coverage.capturesClosed > Self.runs / 4, "\(coverage)")
        #expect(coverage.commits > Self.runs / 20, "\(coverage)")
        #expect(coverage.snapBacksToHistory > Self.runs / 20, "\(coverage)")
        #expect(coverage.tabSwitches > Self.runs, "\(coverage)")
        #expect(coverage.gatingAlerts > Self.runs / 20, "\(coverage)")
        #expect(coverage.historyReads > Self.runs, "\(coverage)")
        #expect(coverage.tinyLayouts > Self.runs / 4, "\(coverage)")
        #expect(coverage.searchesOpened > Self.runs / 2, "\(coverage)")
        #expect(coverage.searchEscapes > Self.runs / 10, "\(coverage)")
        #expect(coverage.searchResultsOpened > Self.runs / 60, "\(coverage)")
        #expect(coverage.searches > Self.runs, "\(coverage)")
        #expect(coverage.modeSwitches > Self.runs / 4, "\(coverage)")
        #expect(coverage.detailsLoaded > Self.runs / 40, "\(coverage)")
        // Enter on "Delete record?" cancels: only its button or `y` deletes.
        #expect(coverage.deletions > Self.runs / 80, "\(coverage)")
        #expect(coverage.clearAlls > Self.runs / 50, "\(coverage)")
        #expect(coverage.highlightsShown > Self.runs / 20, "\(coverage)")
        #expect(coverage.photosStaged > Self.runs / 20, "\(coverage)")
        // Close asks before discarding (y to confirm), so fewer random sessions get there.
        #expect(coverage.closesWithPhotos >= Self.runs / 200, "\(coverage)")
        // Half the steps are at sizes too small for any screen, so previews come up rarely here;
        // PreviewPropertyTests drives them hard.
        #expect(coverage.viewersOpened > Self.runs / 200, "\(coverage)")
        #expect(coverage.previewsShown > Self.runs / 200, "\(coverage)")
        print(
            "property: \(Self.runs) sessions, \(coverage.steps) steps; \(coverage.capturesOpened) captures opened, \(coverage.commits) Dones committed, \(coverage.photosStaged) photos staged, \(coverage.closesWithPhotos) closes with staged photos"
        )
    }

    private func isCommitted(_ action: AppAction) -> Bool {
        if case .captureCommitted = action { return true }
        return false
    }
}

extension Presentation {
    /// A short form for failure messages (the full capture state is long).
    var summary: String {
        switch self {
        case .none: "none"
        case let .sheet(sheet): "sheet(\(sheet))"
        case let .fullScreenCapture(capture):
            "capture(\(capture.phase), kind \(capture.kind.map(\.rawValue) ?? "–"), committing \(capture.isCommitting))"
        case let .alert(alert, over): "alert(\(alert.title)) over \(over.summary)"
        case let .viewer(viewer, over): "viewer(\(viewer.position)) over \(over.summary)"
        }
    }
}
