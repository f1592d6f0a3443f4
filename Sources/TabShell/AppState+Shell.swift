import CaptureMode
import Domain
import Foundation

/// The shell's own actions: tabs, sheets, alerts, resizing, quitting, messages.
extension AppState {
    /// Quitting: a capture on screen is written as its draft first, whole (a code still being
    /// typed included), so what was on screen is what the next start offers back.
    mutating func quit() -> [AppEffect] {
        isQuitting = true
        return draftBeforeQuitting() + [.quit]
    }

    /// The capture's draft when disk holds less than the screen shows; a copy under way keeps
    /// the folder busy (quitting cancels it and keeps the draft as last saved).
    private mutating func draftBeforeQuitting() -> [AppEffect] {
        guard let draft = unsavedDraft else { return [] }
        savedDraft = draft
        return [.saveDraft(draft)]
    }

    /// Ctrl-C. In a capture holding something it asks what Esc asks (over a photo or an alert
    /// on the capture, those go); Ctrl-C again while the question shows quits. Anywhere else,
    /// in an empty capture, or below the minimum size where no question could show, it quits.
    mutating func interrupt() -> [AppEffect] {
        guard !layout.isTooSmall, var capture = presentation.capture, !capture.isCommitting, !capture.isConfirmingClose,
            capture.closeNeedsConfirmation
        else { return quit() }
        capture.overlay = .confirmingClose
        presentation = .fullScreenCapture(capture)
        return []
    }

    mutating func resize(to newSize: ScreenSize) -> [AppEffect] {
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

    /// A tab key: the full tab bar comes back, and the tab is selected (or, for the action
    /// tab, capture opens) unless something full-screen is up.
    mutating func choose(_ tab: Tab) -> [AppEffect] {
        restoreTabBar()
        switch presentation {
        case .none: break
        case .sheet: closeSheet()
        case .fullScreenCapture, .alert, .viewer: return []
        }
        status = nil
        settingsScreen.changedRow = nil
        guard let content = tab.content else { return openCapture() }
        selectedTab = content
        return content == .history ? toHistory(.rowsNeeded) : []
    }

    mutating func stepTab(by step: Int) -> [AppEffect] {
        restoreTabBar()
        guard presentation == .none else { return [] }
        let tabs = ContentTab.allCases
        let index = tabs.firstIndex(of: selectedTab) ?? 0
        selectedTab = tabs[(index + step + tabs.count) % tabs.count]
        status = nil
        settingsScreen.changedRow = nil
        return selectedTab == .history ? toHistory(.rowsNeeded) : []
    }

    mutating func toggleHelp() -> [AppEffect] {
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

    mutating func openSearch() -> [AppEffect] {
        guard presentation == .none else { return [] }
        status = nil
        var search = SearchState(query: lastSearch.query)
        search.results = lastSearch.results
        search.resultsQuery = lastSearch.resultsQuery
        presentation = .sheet(.search(search))
        return toSearch(.opened)
    }

    /// Closes whatever sheet shows, remembering a search's query for the next `/`.
    mutating func closeSheet() {
        if let search = presentation.search {
            lastSearch.query = search.query.text
            lastSearch.results = search.results
            lastSearch.resultsQuery = search.resultsQuery
        }
        presentation = .none
    }

    mutating func dismissAlert() -> [AppEffect] {
        guard case let .alert(alert, over) = presentation else { return [] }
        presentation = over
        // Esc on "Resume the unfinished capture?" keeps the draft: the status line says so.
        if let kept = DraftOffer.keptMessage(afterCancelling: alert) { status = StatusMessage(kept) }
        return []
    }

    mutating func pressAlertButton(_ index: Int) -> [AppEffect] {
        guard case let .alert(alert, over) = presentation, alert.buttons.indices.contains(index) else { return [] }
        presentation = over
        return alert.effects(ofButton: index)
    }

    mutating func storageFailed(_ message: String) -> [AppEffect] {
        status = StatusMessage(message, kind: .error)
        return toHistory(.loadFailed) + toSearch(.loadFailed)
    }

    /// The database server went away, or came back: what the tabs show is read again then.
    mutating func databaseReachability(_ problem: String?) -> [AppEffect] {
        if let problem {
            storeReach = .unreachable(problem)
            status = StatusMessage(problem, kind: .error)
            return []
        }
        storeReach = .answering
        status = StatusMessage("The database is reachable again.")
        return [inbox.loadEffect] + toHistory(.changedElsewhere) + toSearch(.changedElsewhere)
    }

    /// The store opened: its settings replace the defaults, and a failure said while it was
    /// opening gives way to the news that it answers now (the session then starts: `.started`).
    mutating func storeOpened(_ settings: Settings) -> [AppEffect] {
        self.settings = settings
        if storeReach.problem != nil { status = StatusMessage("The database answers now.") }
        storeReach = .answering
        return []
    }

    /// Shows the next unfinished capture's Resume / Discard question, when nothing else is up.
    mutating func offerNextDraft() -> [AppEffect] {
        guard presentation == .none else { return [] }
        return toDrafts(.offerDue)
    }

    /// Something went wrong outside the screen's flow (the on-commit command): said once on the
    /// status line, where it stays until the next move, and nothing waits for it.
    mutating func notice(_ message: String) -> [AppEffect] {
        status = StatusMessage(message, kind: .error)
        return []
    }

    /// Drafts found at start: the first is offered (Resume / Discard) when nothing else is up.
    mutating func recoveryFinished(_ found: [RecoveredDraft], summary: String) -> [AppEffect] {
        recoverySummary = summary.isEmpty ? nil : summary
        return toDrafts(.found(found, config: captureConfig, requests: inbox.requests)) + offerNextDraft()
    }

    /// A new success message ("✓ Saved … to History.") goes after a few seconds, so the key
    /// hints it covers come back without a key press.
    mutating func expireStatus(changedFrom before: StatusMessage?) -> [AppEffect] {
        guard let status, status != before, status.kind == .success else { return [] }
        statusToken += 1
        return [.schedule(afterMilliseconds: StatusMessage.successMilliseconds, action: .statusExpired(token: statusToken))]
    }

    mutating func expireStatus(token: Int) -> [AppEffect] {
        if token == statusToken, status?.kind == .success { status = nil }
        return []
    }

    /// Keeps every list's cursor and scroll within range after the layout or the data changed.
    mutating func clampLists() {
        inbox.list.clamp(count: inbox.requests.count, viewport: layout.inboxListRows)
        history.clamp(layout: layout)
        settingsScreen.list.clamp(count: SettingsRow.allCases.count, viewport: layout.settingsListRows)
    }
}
