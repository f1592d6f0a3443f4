import CaptureMode
import Foundation

extension AppState {
    /// The tab shell's reducer, a router. Lifecycle and tab-bar actions are the shell's own;
    /// input goes to what has focus (`focus`: an alert, then a sheet, then capture, then the
    /// selected tab); a feature's action (`.inbox(…)`, `.history(…)`, …) goes to that feature,
    /// its keys only while it shows. Each feature's rules live in its own reducer
    /// (Sources/TabShell/Features); what follows any action is `settle`.
    public mutating func send(_ action: AppAction) -> [AppEffect] {
        let statusBefore = status
        let effects = route(action)
        defer { showNextNotice() }
        return effects + settle() + expireStatus(changedFrom: statusBefore) + settlePreviews()
    }

    private mutating func route(_ action: AppAction) -> [AppEffect] {
        // Below the minimum size nothing shows but the notice: only what keeps the terminal
        // usable acts (resizing, Ctrl-L, quitting); the rest would change a screen unseen.
        if layout.isTooSmall, action.isUserInput { return [] }
        switch action {
        // The shell
        case .started: return [inbox.loadEffect] + toHistory(.rowsNeeded)
        case let .resized(size): return resize(to: size)
        case .quitRequested: return quit()
        case .interruptRequested: return interrupt()
        case .redrawRequested: return [.redraw]
        case let .tabChosen(tab): return choose(tab)
        case .nextTabRequested: return stepTab(by: 1)
        case .previousTabRequested: return stepTab(by: -1)
        case .helpRequested: return toggleHelp()
        case .searchRequested: return openSearch()
        case .alertDismissed: return dismissAlert()
        case let .alertButtonPressed(index): return pressAlertButton(index)
        case .photoViewRequested: return openViewer()
        case let .photoClicked(index): return photoClicked(index)
        case let .previewTerminalFound(terminal): return previewTerminalFound(terminal)
        case let .viewerPhotoStepped(offset): return stepViewer(by: offset)
        case let .statusExpired(token): return expireStatus(token: token)

        // Input, to whatever has focus
        case let .listMoved(move): return moveFocusedList(move)
        case .rowActivated: return toFocus(.activated)
        case let .rowClicked(row): return toFocus(.clicked(row: row))
        case let .wheelTurned(turn): return turnWheel(turn)
        case .escapePressed: return toFocus(.escape)

        // A feature's own actions, to its reducer
        case let .inbox(action): return admits(action) ? toInbox(action) : []
        case let .history(action): return admits(action) ? toHistory(action) : []
        case let .settings(action): return admits(action) ? toSettings(action) : []
        case let .search(action): return toSearch(action)
        case let .drafts(.dropped(id)): return toDrafts(.dropped(id)) + offerNextDraft()
        case let .drafts(action): return toDrafts(action)
        case let .capture(action): return toCapture(action)

        // Results the shell handles
        case .databaseChangedElsewhere: return [inbox.loadEffect] + toHistory(.changedElsewhere) + toSearch(.changedElsewhere)
        case let .databaseReachability(problem): return databaseReachability(problem)
        case let .storeOpened(settings): return storeOpened(settings)
        case let .captureCommitted(_, submission): return captureCommitted(submission)
        case let .storageFailed(message): return storageFailed(message)
        case let .commitHookFailed(message): return notice(message)
        case let .messageShown(message):
            status = StatusMessage(message)
            return []
        case let .presentingChanged(text):
            environment.presenting = text
            return []
        case let .clipboardNoteFound(note):
            environment.clipboardNote = note
            return []
        case .idleSessionClosingSoon:
            status = StatusMessage(Self.idleSessionClosingSoonMessage)
            return []
        case let .recoveryFinished(found, summary): return recoveryFinished(found, summary: summary)
        case let .sessionRestored(snapshot, photos, message):
            return restore(snapshot, photos: photos, message: message) + [inbox.loadEffect] + toHistory(.rowsNeeded)
        case let .previewLoaded(request, ticket, outcome): return previewLoaded(request, ticket: ticket, outcome: outcome)
        }
    }

    /// The Inbox's keys act while it shows; its answers always arrive.
    private func admits(_ action: InboxAction) -> Bool { !action.isUserInput || isShowing(.inbox) }

    /// A setting's row steps from a click wherever its row shows; keys act on Settings while
    /// it shows.
    private func admits(_ action: SettingsAction) -> Bool {
        switch action {
        case .input, .highlightedValueStepped: isShowing(.settings)
        case .rowCycled: true
        }
    }

    /// History's keys act while it shows, `D` (clear all) on any tab with nothing over it; its
    /// answers always arrive.
    private func admits(_ action: HistoryAction) -> Bool {
        if action == .clearAllRequested { return presentation == .none }
        return !action.isUserInput || isShowing(.history)
    }
}

extension AppState {
    /// The status line when the server warns that this idle session is about to close.
    public static let idleSessionClosingSoonMessage =
        "Idle: this session closes within a minute; press a key to stay."
}

extension AppAction {
    /// An action a person's key, click or wheel sends to change what a screen shows. Resizing,
    /// Ctrl-L, quitting and the results of work are not.
    public var isUserInput: Bool {
        switch self {
        case .tabChosen, .nextTabRequested, .previousTabRequested, .listMoved, .rowActivated, .rowClicked, .wheelTurned,
            .escapePressed, .helpRequested, .alertDismissed, .alertButtonPressed, .searchRequested,
            .photoViewRequested, .photoClicked, .viewerPhotoStepped:
            return true
        case let .inbox(action): return action.isUserInput
        case let .history(action): return action.isUserInput
        case let .settings(action): return action.isUserInput
        case let .search(action): return action.isUserInput
        case let .capture(action): return action.isUserInput
        case .drafts, .started, .resized, .quitRequested, .interruptRequested, .redrawRequested, .previewTerminalFound,
            .databaseChangedElsewhere, .databaseReachability, .storeOpened, .captureCommitted, .commitHookFailed,
            .idleSessionClosingSoon, .messageShown, .presentingChanged, .clipboardNoteFound, .storageFailed, .statusExpired, .recoveryFinished,
            .sessionRestored, .previewLoaded:
            return false
        }
    }
}
