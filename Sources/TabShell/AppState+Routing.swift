import CaptureMode
import Foundation

extension AppState {
    /// The tab shell's reducer, a router. Lifecycle and tab-bar actions are the shell's own;
    /// input goes to what has focus (an alert, then a sheet, then capture, then the selected
    /// tab); a result goes to the feature that asked for it. Each feature's rules live in its
    /// own reducer (Sources/TabShell/Features).
    public mutating func send(_ action: AppAction) -> [AppEffect] {
        let statusBefore = status
        let effects = route(action)
        return effects + settle() + expireStatus(changedFrom: statusBefore) + settlePreviews()
    }

    /// A new success message ("✓ Saved … to History.") goes after a few seconds, so the key
    /// hints it covers come back without a key press.
    private mutating func expireStatus(changedFrom before: StatusMessage?) -> [AppEffect] {
        guard let status, status != before, status.kind == .success else { return [] }
        statusToken += 1
        return [.schedule(afterMilliseconds: StatusMessage.successMilliseconds, action: .statusExpired(token: statusToken))]
    }

    private mutating func route(_ action: AppAction) -> [AppEffect] {
        switch action {
        case .started: return [.loadInbox] + toHistory(.rowsNeeded)
        case let .resized(size): return resize(to: size)
        case .quitRequested:
            isQuitting = true
            return [.quit]
        case .redrawRequested: return [.redraw]
        case let .tabChosen(tab):
            restoreTabBar()
            return choose(tab)
        case .nextTabRequested:
            restoreTabBar()
            return stepTab(by: 1)
        case .previousTabRequested:
            restoreTabBar()
            return stepTab(by: -1)

        case let .listMoved(move):
            // The bar changes size before the move, so the list moves (and reads rows) once,
            // in its new size.
            if let minimized = tabBarSize(for: move), minimized != isTabBarMinimized { applyTabBarSize(minimized: minimized) }
            let effects = focus(.moved(move))
            if isTabBarMinimized, isAtTopOfFocusedList { applyTabBarSize(minimized: false) }
            return effects
        case .rowActivated: return focus(.activated)
        case let .rowClicked(row): return focus(.clicked(row: row))
        case .escapePressed: return focus(.escape)

        case .requestChoiceToggled: return isShowing(.inbox) ? toInbox(.choiceToggled) : []
        case .backRequested: return isShowing(.history) ? toHistory(.backRequested) : []
        case .browseModeCycled: return isShowing(.history) ? toHistory(.browseModeCycled) : []
        case .deleteRequested: return isShowing(.history) ? toHistory(.deleteRequested) : []
        case .clearAllRequested: return presentation == .none ? toHistory(.clearAllRequested) : []
        case let .settingCycled(row, forward): return toSettings(.rowCycled(row, forward: forward))
        case .helpRequested: return toggleHelp()
        case .searchRequested: return openSearch()
        case let .searchEdited(edit): return toSearch(.edited(edit))
        case .alertDismissed: return dismissAlert()
        case let .alertButtonPressed(index): return pressAlertButton(index)
        case let .capture(action): return toCapture(action)
        case .photoViewRequested: return openViewer()
        case let .photoClicked(index): return photoClicked(index)
        case let .previewTerminalFound(terminal):
            previewTerminal = terminal
            return []
        case let .viewerPhotoStepped(offset): return stepViewer(by: offset)

        case let .inboxLoaded(snapshot): return toInbox(.loaded(snapshot))
        case let .historyLoaded(page): return toHistory(.pageLoaded(page))
        case let .recordDetailLoaded(id, detail): return toHistory(.detailLoaded(id: id, detail: detail))
        case let .recordDeleted(id): return toHistory(.recordDeleted(id))
        case let .allRecordsDeleted(count): return toHistory(.allRecordsDeleted(count: count))
        case let .searchResultsLoaded(query, rows): return toSearch(.resultsLoaded(query: query, rows: rows))
        case let .highlightEnded(token): return toInbox(.highlightEnded(token: token))
        case .draftSaveDue:
            // settle() saves the draft now if it still differs from the one on disk.
            isDraftSaveScheduled = false
            if let draft = presentation.capture?.draft, draft.hasContent, draft != savedDraft {
                savedDraft = draft
                return [.saveDraft(draft)]
            }
            return []
        case let .statusExpired(token):
            if token == statusToken, status?.kind == .success { status = nil }
            return []
        case .databaseChangedElsewhere: return [.loadInbox] + toHistory(.changedElsewhere) + toSearch(.changedElsewhere)
        case let .captureCommitted(_, submission): return captureCommitted(submission)
        case let .captureCommitFailed(message): return toCapture(.commitFailed(message))
        case let .storageFailed(message): return storageFailed(message)
        case let .recoveryFinished(found, summary):
            recoverySummary = summary.isEmpty ? nil : summary
            return toDrafts(.found(found, config: captureConfig, requests: inbox.requests)) + offerNextDraft()
        case let .draftResumed(id): return toDrafts(.resumed(id))
        case let .draftDropped(id): return toDrafts(.dropped(id)) + offerNextDraft()
        case let .sessionRestored(snapshot, photos, message):
            return restore(snapshot, photos: photos, message: message) + [.loadInbox] + toHistory(.rowsNeeded)
        case let .previewLoaded(request, ticket, outcome): return previewLoaded(request, ticket: ticket, outcome: outcome)
        }
    }

    // MARK: - Focus

    /// Input to whatever has focus: an alert, then a sheet, then capture, then the selected tab.
    private mutating func focus(_ input: FocusInput) -> [AppEffect] {
        switch presentation {
        case .alert:
            return input == .escape ? dismissAlert() : []
        case .sheet(.help):
            return toHelp(.input(input))
        case .sheet(.search):
            return toSearch(.input(input))
        case var .fullScreenCapture(capture):
            if capture.isShowingKeys, case let .moved(move) = input {
                scrollCaptureKeys(&capture, move)
                presentation = .fullScreenCapture(capture)
                return []
            }
            return input == .escape ? toCapture(.closeTapped) : []
        case .viewer:
            return input == .escape ? closeViewer() : []
        case .none:
            // A move or Enter on a tab is the user moving on: the last message goes.
            if input == .activated || input.isMove { status = nil }
            switch selectedTab {
            case .inbox: return toInbox(.input(input))
            case .history: return toHistory(.input(input))
            case .settings: return toSettings(.input(input))
            case .create: return []
            }
        }
    }

    /// ↑↓, PgUp/PgDn, Home/End in capture's list of keys (`?`/F1), which scrolls like the help
    /// sheet when the screen is too short for it.
    private func scrollCaptureKeys(_ capture: inout CaptureState, _ move: ListMove) {
        let count = KeyMap.helpLines(for: KeyMap.captureContexts(for: self) + [.global], in: self, unicode: true).count
        let rows = layout.captureKeysRows
        let page = max(1, rows - 1)
        var offset = capture.keysScrollOffset
        switch move {
        case .up: offset -= 1
        case .down: offset += 1
        case .pageUp: offset -= page
        case .pageDown: offset += page
        case .home: offset = 0
        case .end: offset = count
        }
        capture.keysScrollOffset = min(max(0, offset), max(0, count - rows))
    }

    /// Whether `tab` shows with nothing over it, so its own keys apply.
    private func isShowing(_ tab: Tab) -> Bool { presentation == .none && selectedTab == tab }

    // MARK: - Features

    mutating func toInbox(_ action: InboxAction) -> [AppEffect] {
        apply(inbox.send(action, viewport: layout.inboxListRows))
    }

    mutating func toHistory(_ action: HistoryAction) -> [AppEffect] {
        apply(history.send(action, layout: layout))
    }

    mutating func toSettings(_ action: SettingsAction) -> [AppEffect] {
        let before = settings
        let outcome = settingsScreen.send(action, settings: &settings, viewport: layout.settingsListRows)
        if settings != before { clampLists() }
        return apply(outcome)
    }

    mutating func toSearch(_ action: SearchAction) -> [AppEffect] {
        guard var search = presentation.search else { return [] }
        let outcome = search.send(action, viewport: layout.searchResultRows)
        presentation = .sheet(.search(search))
        return apply(outcome)
    }

    mutating func toHelp(_ action: HelpAction) -> [AppEffect] {
        guard case var .sheet(.help(help)) = presentation else { return [] }
        let outcome = help.send(action, rows: layout.helpRows)
        presentation = .sheet(.help(help))
        return apply(outcome)
    }

    mutating func toDrafts(_ action: DraftsAction) -> [AppEffect] {
        apply(drafts.send(action))
    }

    /// Carries out what a feature asked of the shell; returns the feature's effects and any the
    /// requests led to.
    private mutating func apply(_ outcome: Outcome) -> [AppEffect] {
        var effects = outcome.effects
        for request in outcome.requests {
            switch request {
            case let .status(message):
                status = message
            case let .present(alert):
                presentation = .alert(alert, over: presentation)
            case let .startCapture(request):
                effects += openCapture(for: request)
            case let .presentCapture(capture):
                presentation = .fullScreenCapture(capture)
            case let .openRecord(row):
                closeSheet()
                status = nil
                selectedTab = .history
                effects += toHistory(.recordOpened(row))
            case .clearHistory:
                effects += presentation == .none ? toHistory(.clearAllRequested) : []
            case .closeSheet:
                closeSheet()
            }
        }
        return effects
    }

    // MARK: - Shell

    private mutating func resize(to newSize: ScreenSize) -> [AppEffect] {
        size = newSize
        clampLists()
        switch presentation {
        case .sheet(.help): _ = toHelp(.resized)
        case var .sheet(.search(search)):
            search.list.clamp(count: search.results.count, viewport: layout.searchResultRows)
            presentation = .sheet(.search(search))
        default: break
        }
        return toHistory(.rowsNeeded)
    }

    private mutating func choose(_ tab: Tab) -> [AppEffect] {
        switch presentation {
        case .none: break
        case .sheet: closeSheet()
        case .fullScreenCapture, .alert, .viewer: return []
        }
        status = nil
        switch tab.role {
        case .content:
            selectedTab = tab
            return tab == .history ? toHistory(.rowsNeeded) : []
        case .action:
            return openCapture()
        }
    }

    private mutating func stepTab(by step: Int) -> [AppEffect] {
        guard presentation == .none else { return [] }
        let tabs = Tab.contentTabs
        let index = tabs.firstIndex(of: selectedTab) ?? 0
        selectedTab = tabs[(index + step + tabs.count) % tabs.count]
        status = nil
        return selectedTab == .history ? toHistory(.rowsNeeded) : []
    }

    private mutating func toggleHelp() -> [AppEffect] {
        switch presentation {
        case .none: presentation = .sheet(.help(HelpState()))
        case .sheet(.search):
            // F1 in search: the keys, in place of the search (its query is remembered).
            closeSheet()
            presentation = .sheet(.help(HelpState()))
        case .sheet: closeSheet()
        case .fullScreenCapture, .alert, .viewer: break
        }
        return []
    }

    private mutating func openSearch() -> [AppEffect] {
        guard presentation == .none else { return [] }
        status = nil
        var search = SearchState(query: lastSearchQuery)
        search.results = lastSearchResults
        search.resultsQuery = lastSearchResultsQuery
        presentation = .sheet(.search(search))
        return toSearch(.opened)
    }

    /// Closes whatever sheet shows, remembering a search's query for the next `/`.
    mutating func closeSheet() {
        if let search = presentation.search {
            lastSearchQuery = search.query.text
            lastSearchResults = search.results
            lastSearchResultsQuery = search.resultsQuery
        }
        presentation = .none
    }

    private mutating func dismissAlert() -> [AppEffect] {
        if case let .alert(_, over) = presentation { presentation = over }
        return []
    }

    private mutating func pressAlertButton(_ index: Int) -> [AppEffect] {
        guard case let .alert(alert, over) = presentation, alert.buttons.indices.contains(index) else { return [] }
        presentation = over
        return alert.effects(ofButton: index)
    }

    private mutating func storageFailed(_ message: String) -> [AppEffect] {
        var effects = toHistory(.loadFailed)
        effects += toSearch(.loadFailed)
        status = StatusMessage(message, kind: .error)
        return effects
    }

    /// Shows the next unfinished capture's Resume / Discard question, when nothing else is up.
    private mutating func offerNextDraft() -> [AppEffect] {
        guard presentation == .none else { return [] }
        return toDrafts(.offerDue)
    }

    /// Seed 004's `.onScrollDown`: moving down a list (Inbox, History, a record, help) minimizes
    /// the tab bar; moving up or reaching the top restores it. The list gains the row at once and
    /// its lines stay where they are on screen.
    func tabBarSize(for move: ListMove) -> Bool? {
        guard settings.tabBarMinimizesOnScroll else { return false }
        switch presentation {
        case .none, .sheet(.help): break
        default: return nil
        }
        switch move {
        case .down, .pageDown, .end: return true
        case .up, .pageUp, .home: return false
        }
    }

    /// Whether the list with focus shows its first row at the top.
    private var isAtTopOfFocusedList: Bool {
        if case let .sheet(.help(help)) = presentation { return help.scrollOffset == 0 }
        switch selectedTab {
        case .inbox: return inbox.list.cursor == 0
        case .history: return history.detail.map { $0.scrollOffset == 0 } ?? (history.list.cursor == 0)
        case .settings: return settingsScreen.list.cursor == 0
        case .create: return true
        }
    }

    /// Changes the tab bar's size; with the bar on top the content starts a row higher, so the
    /// lists scroll by that row and nothing on screen jumps.
    mutating func setTabBarMinimized(_ minimized: Bool) -> [AppEffect] {
        guard minimized != isTabBarMinimized else { return [] }
        applyTabBarSize(minimized: minimized)
        // History on screen may show a row more than it has loaded.
        return selectedTab == .history && presentation == .none ? toHistory(.rowsNeeded) : []
    }

    /// A tab key or a tab switch brings the full bar back; the tab shown next asks for its rows.
    private mutating func restoreTabBar() {
        if isTabBarMinimized { applyTabBarSize(minimized: false) }
    }

    /// This state with the tab bar at the other size: every list's scroll moved as
    /// `setTabBarMinimized` moves it (what a tab switch may change besides the selection).
    public func adjustingTabBar(minimized: Bool) -> AppState {
        var state = self
        if minimized != isTabBarMinimized { state.applyTabBarSize(minimized: minimized) }
        return state
    }

    private mutating func applyTabBarSize(minimized: Bool) {
        isTabBarMinimized = minimized
        if settings.tabBarPosition == .top {
            let shift = minimized ? -1 : 1
            inbox.list.scrollOffset += shift
            history.list.scrollOffset += shift
            settingsScreen.list.scrollOffset += shift
        }
        clampLists()
    }

    /// Keeps every list's cursor and scroll within range after the layout or the data changed.
    mutating func clampLists() {
        inbox.list.clamp(count: inbox.requests.count, viewport: layout.inboxListRows)
        history.clamp(layout: layout)
        settingsScreen.list.clamp(count: SettingsRow.allCases.count, viewport: layout.settingsListRows)
    }

    /// What follows any action: a highlight waiting for the Inbox starts once it shows, and the
    /// capture on screen is kept as a draft whenever what it collected changes.
    private mutating func settle() -> [AppEffect] {
        var effects: [AppEffect] = []
        if selectedTab == .inbox, presentation.capture == nil {
            effects += toInbox(.shown)
        }
        guard let capture = presentation.capture else {
            savedDraft = nil
            return effects
        }
        // While a copy runs the staging folder is busy; the photo's arrival saves the draft.
        guard capture.copy == nil, let draft = capture.draft, draft.hasContent, draft != savedDraft else { return effects }
        var withoutTyping = draft
        withoutTyping.typedCode = savedDraft?.typedCode
        if withoutTyping == savedDraft {
            // Only the code being typed changed: one save a moment after typing pauses, not a
            // durable write per keystroke (a scanner types a code in a few milliseconds).
            if !isDraftSaveScheduled {
                isDraftSaveScheduled = true
                effects.append(.schedule(afterMilliseconds: Self.typedCodeSaveDelay, action: .draftSaveDue))
            }
            return effects
        }
        savedDraft = draft
        effects.append(.saveDraft(draft))
        return effects
    }

    /// How long after the last keystroke a code being typed is kept in the draft.
    static let typedCodeSaveDelay = 1000
}

private extension FocusInput {
    var isMove: Bool {
        if case .moved = self { return true }
        return false
    }
}
