import CaptureMode
import Foundation
import PropertyBased
import Testing
import TabShell

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

        /// How often the step comes up, relative to the others.
        var weight: Int {
            switch self {
            case .chooseContentTab, .chooseCreate, .listMove, .commitAnswered: 4
            case .rowActivated, .escape, .captureKind, .typeDigit, .typeCode, .pasteCode, .enter, .done,
                 .autoAdvanceFires, .historyPageDelivered:
                3
            case .nextTab, .previousTab, .choiceToggled, .alertDismissed, .resize, .capturePicker, .typeText,
                 .close, .edit, .settingCycled, .snapBackCycled, .inboxLoaded:
                2
            case .help, .back, .quit, .autoAdvanceStale, .gatingCycled, .inboxReloaded, .historyLoadedRandom,
                 .storageFailed, .captureCommittedRandom, .captureCommitFailedRandom:
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

    mutating func perform(_ effects: [AppEffect]) {
        for effect in effects {
            switch effect {
            case let .loadHistory(request): pagesInFlight.append(request)
            case let .scheduleAutoAdvance(_, token): timers.append(token)
            case let .commitCapture(submission): commitInFlight = submission
            case .loadInbox, .saveSettings, .quit: break
            case .stagePhoto, .unstagePhoto, .completePath, .discardStaging: break
            }
        }
    }

    /// The action for `step` in `state`, or nil when the step has nothing to answer.
    mutating func action(for step: SessionStep, in state: AppState) -> AppAction? {
        let n = step.n
        switch step.kind {
        case .chooseContentTab: return .tabChosen(Tab.contentTabs[n % Tab.contentTabs.count])
        case .chooseCreate: return .tabChosen(.create)
        case .nextTab: return .nextTabRequested
        case .previousTab: return .previousTabRequested
        case .listMove: return .listMoved(ListMove.allCases[n % ListMove.allCases.count])
        case .rowActivated: return .rowActivated
        case .choiceToggled: return .requestChoiceToggled
        case .escape: return .escapePressed
        case .help: return .helpRequested
        case .alertDismissed: return .alertDismissed
        case .back: return .backRequested
        case .resize:
            let rows = SessionStep.rows[n % SessionStep.rows.count]
            let columns = SessionStep.columns[(n / SessionStep.rows.count) % SessionStep.columns.count]
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
            return n % 4 == 0 ? .capture(.backspacePressed)
                : n % 4 == 1 ? .capture(.deletePressed)
                : .capture(.cursorMoved(motions[n % motions.count]))
        case .autoAdvanceStale: return .capture(.autoAdvanceElapsed(token: n % 5))
        case .autoAdvanceFires:
            guard !timers.isEmpty else { return nil }
            return .capture(.autoAdvanceElapsed(token: timers.removeFirst()))
        case .settingCycled: return .settingCycled(SettingsRow.allCases[n % SettingsRow.allCases.count], forward: n % 2 == 0)
        case .snapBackCycled: return .settingCycled(.snapBackTarget, forward: true)
        case .gatingCycled: return .settingCycled(.captureGating, forward: true)
        case .inboxLoaded:
            inbox = SessionStep.inbox(n)
            return .inboxLoaded(snapshot(inbox))
        case .inboxReloaded: return .inboxLoaded(snapshot(inbox))
        case .historyPageDelivered:
            guard !pagesInFlight.isEmpty else { return nil }
            return .historyLoaded(page(for: pagesInFlight.removeFirst(), total: historyTotal))
        case .historyLoadedRandom:
            historyTotal = [0, 1, 3, 50, 1000][n % 5]
            pagesInFlight = []
            let start = historyTotal == 0 ? 0 : (n / 5) % historyTotal
            return .historyLoaded(page(for: HistoryPageRequest(start: start, count: 1 + n % 60), total: historyTotal))
        case .storageFailed:
            pagesInFlight = []
            return .storageFailed("Storage failed (\(n)).")
        case .commitAnswered:
            guard let submission = commitInFlight else { return nil }
            commitInFlight = nil
            guard n % 4 != 0 else { return .captureCommitFailed("The database is locked.") }
            historyTotal += 1
            if let id = submission.requestID, let index = inbox.firstIndex(where: { $0.id == id }) {
                inbox[index].status = .done
            }
            defer { nextRecordID += 1 }
            return .captureCommitted(recordID: nextRecordID, submission: submission)
        case .captureCommittedRandom:
            historyTotal += 1
            let submission = CaptureSubmission(kind: .barcode, barcode: validEAN13, requestID: n % 2 == 0 ? nil : Int64(n % 4))
            defer { nextRecordID += 1 }
            return .captureCommitted(recordID: nextRecordID, submission: submission)
        case .captureCommitFailedRandom: return .captureCommitFailed("Failed (\(n)).")
        }
    }
}

// MARK: - Invariants

enum ShellInvariants {
    /// What is wrong after `action` took `before` to `after`, if anything.
    static func violations(before: AppState, action: AppAction, effects: [AppEffect], after: AppState) -> [String] {
        var problems: [String] = []

        // (1) The action tab is never selected.
        if after.selectedTab.role != .content {
            problems.append("selectedTab is \(after.selectedTab)")
        }

        // (2) Leaving capture lands on the snap-back target as it was before the step.
        if before.presentation.capture != nil, after.presentation.capture == nil {
            let target: Tab = before.settings.snapBackTarget == .history ? .history : before.selectedTab
            if after.selectedTab != target {
                problems.append("capture closed onto \(after.selectedTab), expected \(target)")
            }
        }

        // (3) Switching tabs leaves every tab's own state alone (History may only ask for its rows).
        if isTabSwitch(action) {
            var history = after.history
            if after.selectedTab == .history { history.pendingLoad = before.history.pendingLoad }
            if after.inbox != before.inbox { problems.append("tab switch changed the Inbox state") }
            if history != before.history { problems.append("tab switch changed the History state") }
            if after.settingsScreen != before.settingsScreen { problems.append("tab switch changed the Settings state") }
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

    static func isNavigation(_ action: AppAction) -> Bool {
        switch action {
        case .tabChosen, .nextTabRequested, .previousTabRequested, .listMoved, .rowActivated, .backRequested,
             .escapePressed, .helpRequested, .alertDismissed, .resized, .settingCycled:
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
        case let .alert(_, over): captureCount(over)
        case .none, .sheet: 0
        }
    }
}

// MARK: - The property

@Suite("Shell: random sessions")
struct AppPropertyTests {
    /// At least 2,000 sessions; set TABSHELL_PROPERTY_RUNS for a longer local soak.
    static let runs = max(2_000, ProcessInfo.processInfo.environment["TABSHELL_PROPERTY_RUNS"].flatMap { Int($0) } ?? 0)

    /// How often the sessions reached the situations the invariants are about, so a generator
    /// that stopped reaching them fails the test instead of passing vacuously.
    struct Coverage {
        var capturesOpened = 0, capturesClosed = 0, commits = 0, snapBacksToHistory = 0
        var tabSwitches = 0, gatingAlerts = 0, historyReads = 0, tinyLayouts = 0
    }

    @Test("random sessions keep the tab-shell invariants after every step")
    func randomSessionsKeepInvariants() async {
        var coverage = Coverage()
        var sawViolation = false
        await propertyCheck(count: Self.runs, input: SessionStep.generator.array(of: 1...200)) { steps in
            var state = AppState(size: ScreenSize(rows: 24, columns: 80))
            var frontEnd = SimulatedFrontEnd()
            frontEnd.perform(state.send(.started))
            var trail: [String] = []

            for step in steps {
                guard let action = frontEnd.action(for: step, in: state) else { continue }
                let before = state
                let effects = state.send(action)
                frontEnd.perform(effects)
                trail.append("\(step) → \(action)")

                let problems = ShellInvariants.violations(before: before, action: action, effects: effects, after: state)
                guard problems.isEmpty else {
                    sawViolation = true
                    Issue.record("""
                        After step \(trail.count): \(problems.joined(separator: "; "))
                        before: tab \(before.selectedTab), presentation \(before.presentation.summary), \
                        settings \(before.settings.snapBackTarget)
                        after:  tab \(state.selectedTab), presentation \(state.presentation.summary)
                        last steps:
                        \(trail.suffix(25).joined(separator: "\n"))
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
        }
    }
}
