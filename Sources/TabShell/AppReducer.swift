import CaptureMode
import Foundation

extension AppState {
    /// The tab shell's reducer: applies one action, returns the effects to perform.
    public mutating func send(_ action: AppAction) -> [AppEffect] {
        let effects = reduce(action)
        return effects + startInboxHighlightIfShowing()
    }

    private mutating func reduce(_ action: AppAction) -> [AppEffect] {
        switch action {
        case .started:
            return [.loadInbox] + historyLoadIfNeeded()

        case let .resized(newSize):
            size = newSize
            clampLists()
            switch presentation {
            case let .sheet(.help(offset)):
                presentation = .sheet(.help(scrollOffset: clampedHelpOffset(offset)))
            case var .sheet(.search(search)):
                search.list.clamp(count: search.results.count, viewport: layout.searchResultRows)
                presentation = .sheet(.search(search))
            default:
                break
            }
            return historyLoadIfNeeded()

        case .quitRequested:
            isQuitting = true
            return [.quit]

        case let .tabChosen(tab):
            switch presentation {
            case .none: break
            case .sheet: closeSheet()
            case .fullScreenCapture, .alert: return []
            }
            status = nil
            switch tab.role {
            case .content:
                selectedTab = tab
                return tab == .history ? historyLoadIfNeeded() : []
            case .action:
                return openCapture()
            }

        case .nextTabRequested, .previousTabRequested:
            guard presentation == .none else { return [] }
            let tabs = Tab.contentTabs
            let index = tabs.firstIndex(of: selectedTab) ?? 0
            let step = action == .nextTabRequested ? 1 : tabs.count - 1
            selectedTab = tabs[(index + step) % tabs.count]
            status = nil
            return selectedTab == .history ? historyLoadIfNeeded() : []

        case let .listMoved(move):
            switch presentation {
            case let .sheet(.help(offset)):
                presentation = .sheet(.help(scrollOffset: clampedHelpOffset(helpOffset(offset, after: move))))
                return []
            case var .sheet(.search(search)):
                search.list.move(move, count: search.results.count, viewport: layout.searchResultRows)
                presentation = .sheet(.search(search))
                return []
            case .none:
                break
            case .sheet, .fullScreenCapture, .alert:
                return []
            }
            status = nil
            switch selectedTab {
            case .inbox:
                inbox.list.move(move, count: inbox.requests.count, viewport: layout.inboxListRows)
            case .history:
                if history.detail != nil {
                    scrollDetail(move)
                    return []
                }
                history.list.move(move, count: history.totalCount, viewport: layout.historyListRows)
                return historyLoadIfNeeded()
            case .settings:
                settingsScreen.list.move(move, count: SettingsRow.allCases.count, viewport: layout.settingsListRows)
            case .create:
                break
            }
            return []

        case .rowActivated:
            if let search = presentation.search {
                guard let row = search.highlightedResult else { return [] }
                return openSearchResult(row)
            }
            guard presentation == .none else { return [] }
            status = nil
            switch selectedTab {
            case .inbox:
                guard let request = inbox.highlightedRequest else { return [] }
                guard request.status == .pending else {
                    status = StatusMessage("That request is done; pick a pending one.")
                    return []
                }
                return openCapture(for: request)
            case .history:
                guard history.stack.isEmpty, let row = history.row(at: history.list.cursor) else { return [] }
                return openDetail(of: row)
            case .settings:
                guard let row = SettingsRow(rawValue: settingsScreen.list.cursor) else { return [] }
                return reduce(.settingCycled(row, forward: true))
            case .create:
                return []
            }

        case let .rowClicked(index):
            if var search = presentation.search {
                guard search.results.indices.contains(index) else { return [] }
                if search.list.cursor == index { return reduce(.rowActivated) }
                search.list.cursor = index
                search.list.clamp(count: search.results.count, viewport: layout.searchResultRows)
                presentation = .sheet(.search(search))
                return []
            }
            guard presentation == .none else { return [] }
            switch selectedTab {
            case .inbox:
                guard inbox.requests.indices.contains(index) else { return [] }
                if inbox.list.cursor == index { return reduce(.rowActivated) }
                inbox.list.cursor = index
                inbox.list.clamp(count: inbox.requests.count, viewport: layout.inboxListRows)
            case .history:
                guard history.stack.isEmpty, (0..<history.totalCount).contains(index) else { return [] }
                if history.list.cursor == index { return reduce(.rowActivated) }
                history.list.cursor = index
                history.list.clamp(count: history.totalCount, viewport: layout.historyListRows)
                return historyLoadIfNeeded()
            case .settings, .create:
                break
            }
            return []

        case .requestChoiceToggled:
            guard presentation == .none, selectedTab == .inbox, let request = inbox.highlightedRequest else { return [] }
            guard request.status == .pending else {
                status = StatusMessage("Only a pending request can be chosen.")
                return []
            }
            inbox.chosenRequestID = inbox.chosenRequestID == request.id ? nil : request.id
            status = inbox.chosenRequestID == nil
                ? StatusMessage("No request chosen.")
                : StatusMessage("Create now captures for \u{201C}\(request.title)\u{201D}.")
            return []

        case let .settingCycled(row, forward):
            if let index = SettingsRow.allCases.firstIndex(of: row) {
                settingsScreen.list.cursor = index
                settingsScreen.list.clamp(count: SettingsRow.allCases.count, viewport: layout.settingsListRows)
            }
            guard row.isSetting else { return reduce(.clearAllRequested) }
            settings.cycle(row, forward: forward)
            clampLists()
            return [.saveSettings(settings)]

        case .backRequested:
            guard presentation == .none else { return [] }
            if selectedTab == .history, !history.stack.isEmpty {
                history.stack.removeLast()
            }
            return []

        case .browseModeCycled:
            guard presentation == .none, selectedTab == .history, history.stack.isEmpty else { return [] }
            return switchBrowseMode(to: history.browseMode.next)

        case .deleteRequested:
            guard presentation == .none, selectedTab == .history else { return [] }
            status = nil
            if let detail = history.detail {
                presentation = .alert(.confirmDeletion(of: detail.record, photoCount: detail.photos?.count), over: .none)
            } else if history.stack.isEmpty, let row = history.row(at: history.list.cursor) {
                presentation = .alert(.confirmDeletion(of: row, photoCount: nil), over: .none)
            }
            return []

        case .clearAllRequested:
            guard presentation == .none else { return [] }
            guard history.totalCount > 0 else {
                status = StatusMessage("History is already empty.")
                return []
            }
            status = nil
            presentation = .alert(.confirmClearAll(count: history.totalCount), over: .none)
            return []

        case .escapePressed:
            switch presentation {
            case let .alert(_, over):
                presentation = over
                return []
            case .sheet:
                closeSheet()
                return []
            case .fullScreenCapture:
                return reduce(.capture(.closeTapped))
            case .none:
                return reduce(.backRequested)
            }

        case .helpRequested:
            switch presentation {
            case .none: presentation = .sheet(.help(scrollOffset: 0))
            case .sheet: closeSheet()
            case .fullScreenCapture, .alert: break
            }
            return []

        case .alertDismissed:
            if case let .alert(_, over) = presentation { presentation = over }
            return []

        case let .alertButtonPressed(index):
            guard case let .alert(alert, over) = presentation, alert.buttons.indices.contains(index) else { return [] }
            presentation = over
            switch alert.buttons[index].action {
            case .dismiss: return []
            case let .deleteRecord(id): return [.deleteRecord(id)]
            case .deleteAllRecords: return [.deleteAllRecords]
            case let .resumeDraft(id): return [.resumeDraft(id)]
            case let .discardDraft(id): return [.discardDraft(id)]
            }

        case .searchRequested:
            guard presentation == .none else { return [] }
            status = nil
            presentation = .sheet(.search(SearchState(query: lastSearchQuery)))
            return searchIfNeeded(previousQuery: "")

        case let .searchEdited(edit):
            guard var search = presentation.search else { return [] }
            let previous = search.trimmedQuery
            search.apply(edit)
            presentation = .sheet(.search(search))
            return searchIfNeeded(previousQuery: previous)

        case let .capture(captureAction):
            guard case var .fullScreenCapture(capture) = presentation else { return [] }
            let effects = capture.send(captureAction)
            presentation = .fullScreenCapture(capture)
            var out: [AppEffect] = []
            for effect in effects { out += handle(effect) }
            return out

        case let .recoveryFinished(drafts, summary):
            recoverySummary = summary.isEmpty ? nil : summary
            pendingDrafts = drafts
            return offerNextDraft()

        case let .draftResumed(id):
            guard let offer = pendingDrafts.first(where: { $0.id == id }) else { return [] }
            // One capture at a time: any other drafts stay on disk for the next start.
            pendingDrafts.removeAll()
            presentation = .fullScreenCapture(offer.capture)
            return []

        case let .draftDropped(id):
            pendingDrafts.removeAll { $0.id == id }
            return offerNextDraft()

        case let .inboxLoaded(snapshot):
            inbox.requests = snapshot.requests
            inbox.pendingCount = snapshot.pendingCount
            inbox.hasLoaded = true
            if let chosen = inbox.chosenRequestID, inbox.chosenRequest?.id != chosen {
                inbox.chosenRequestID = nil
            }
            inbox.list.clamp(count: inbox.requests.count, viewport: layout.inboxListRows)
            return []

        case let .historyLoaded(page):
            return historyPageArrived(page)

        case .databaseChangedElsewhere:
            return changedElsewhere()

        case let .captureCommitted(_, submission):
            presentation = .none
            selectedTab = snapBackTarget
            history.list = ListPosition()
            history.stack = []
            history.window = HistoryPage(start: 0, rows: [], totalCount: history.totalCount + 1, mode: history.browseMode)
            history.totalCount += 1
            history.pendingLoad = nil
            if submission.requestID == inbox.chosenRequestID { inbox.chosenRequestID = nil }
            if let requestID = submission.requestID {
                inbox.highlightTokens += 1
                inbox.highlight = RequestHighlight(requestID: requestID, token: inbox.highlightTokens, isShowing: false)
            }
            status = StatusMessage("Saved \(submission.kind.title.lowercased()) to History.", kind: .success)
            return [.loadInbox] + historyLoadIfNeeded()

        case let .captureCommitFailed(message):
            return reduce(.capture(.commitFailed(message)))

        case let .storageFailed(message):
            history.pendingLoad = nil
            if var search = presentation.search, search.isSearching {
                // Stop waiting for an answer that is not coming; the status line says why.
                search.resultsQuery = search.trimmedQuery
                presentation = .sheet(.search(search))
            }
            status = StatusMessage(message, kind: .error)
            return []

        case let .recordDetailLoaded(id, detail):
            return recordDetailArrived(id: id, detail: detail)

        case let .recordDeleted(id):
            return recordWasDeleted(id)

        case let .allRecordsDeleted(count):
            return allRecordsWereDeleted(count)

        case let .searchResultsLoaded(query, rows):
            guard var search = presentation.search, query == search.trimmedQuery else { return [] }
            search.results = rows
            search.resultsQuery = query
            search.list = ListPosition()
            presentation = .sheet(.search(search))
            return []

        case let .highlightEnded(token):
            if inbox.highlight?.token == token { inbox.highlight = nil }
            return []
        }
    }

    // MARK: - Capture

    private mutating func openCapture(for request: InboxRequest? = nil) -> [AppEffect] {
        let target = request ?? inbox.chosenRequest
        if settings.captureGating, target == nil {
            selectedTab = .inbox
            presentation = .alert(.requestRequired, over: .none)
            return []
        }
        if let target, !target.kind.isAvailable {
            presentation = .alert(
                Alert(
                    title: "\(target.kind.title) capture is not available",
                    message: "This version cannot capture \(target.kind.title.lowercased()) yet. The request stays pending."
                ),
                over: .none
            )
            return []
        }
        let config = CaptureConfig(
            autoAdvanceMilliseconds: settings.autoAdvanceMilliseconds,
            allowsFreeText: settings.allowFreeTextCodes,
            maximumPhotos: settings.maximumPhotos,
            maximumPhotoBytes: settings.maximumPhotoBytes
        )
        let link = target.map { CaptureRequestLink(id: $0.id, title: $0.title, kind: $0.kind) }
        presentation = .fullScreenCapture(CaptureState(config: config, request: link))
        return []
    }

    /// Shows the next unfinished capture's Resume / Discard question, when nothing else is up.
    private mutating func offerNextDraft() -> [AppEffect] {
        guard presentation == .none, let next = pendingDrafts.first else { return [] }
        presentation = .alert(next.alert, over: .none)
        return []
    }

    private mutating func handle(_ effect: CaptureEffect) -> [AppEffect] {
        switch effect {
        case let .scheduleAutoAdvance(milliseconds, token):
            return [.scheduleAutoAdvance(milliseconds: milliseconds, token: token)]
        case let .commit(submission):
            return [.commitCapture(submission)]
        case let .stagePhoto(path):
            return [.stagePhoto(path: path)]
        case let .unstagePhoto(photo):
            return [.unstagePhoto(photo)]
        case let .completePath(text):
            return [.completePath(text)]
        case .dismiss:
            presentation = .none
            selectedTab = snapBackTarget
            return [.discardStaging] + (selectedTab == .history ? historyLoadIfNeeded() : [])
        }
    }

    // MARK: - Inbox highlight

    /// Starts the timer of a waiting highlight once the Inbox is on screen, so the answered
    /// request is seen highlighted however the user gets back to it.
    private mutating func startInboxHighlightIfShowing() -> [AppEffect] {
        guard var highlight = inbox.highlight, !highlight.isShowing,
              selectedTab == .inbox, presentation.capture == nil
        else { return [] }
        highlight.isShowing = true
        inbox.highlight = highlight
        return [.scheduleHighlightEnd(milliseconds: RequestHighlight.milliseconds, token: highlight.token)]
    }

    // MARK: - Lists

    mutating func clampLists() {
        inbox.list.clamp(count: inbox.requests.count, viewport: layout.inboxListRows)
        history.list.clamp(count: history.totalCount, viewport: layout.historyListRows)
        settingsScreen.list.clamp(count: SettingsRow.allCases.count, viewport: layout.settingsListRows)
        clampDetailScroll()
    }

    // MARK: - Help sheet

    private func helpOffset(_ offset: Int, after move: ListMove) -> Int {
        let page = max(1, layout.helpRows - 1)
        switch move {
        case .up: return offset - 1
        case .down: return offset + 1
        case .pageUp: return offset - page
        case .pageDown: return offset + page
        case .home: return 0
        case .end: return Int.max / 2
        }
    }

    private func clampedHelpOffset(_ offset: Int) -> Int {
        let lines = KeyMap.helpLines(unicode: true).count
        return min(max(0, offset), max(0, lines - layout.helpRows))
    }
}

extension Settings {
    /// Steps one setting to its next (or previous) value; rows that are not settings change nothing.
    public mutating func cycle(_ row: SettingsRow, forward: Bool) {
        switch row {
        case .snapBackTarget: snapBackTarget = snapBackTarget == .lastTab ? .history : .lastTab
        case .captureGating: captureGating.toggle()
        case .tabBarPosition: tabBarPosition = tabBarPosition == .bottom ? .top : .bottom
        case .colorEnabled: colorEnabled.toggle()
        case .freeTextCodes: allowFreeTextCodes.toggle()
        case .maximumPhotos:
            maximumPhotos = Self.step(Settings.maximumPhotosChoices, from: maximumPhotos, forward: forward)
        case .maximumPhotoSize:
            let mebibytes = Self.step(Settings.maximumPhotoMebibyteChoices, from: maximumPhotoBytes / (1024 * 1024), forward: forward)
            maximumPhotoBytes = mebibytes * 1024 * 1024
        case .autoAdvance:
            let choices = Settings.autoAdvanceChoices
            let current = autoAdvanceMilliseconds
            if forward {
                autoAdvanceMilliseconds = choices.first { $0 > current } ?? choices[0]
            } else {
                autoAdvanceMilliseconds = choices.last { $0 < current } ?? choices[choices.count - 1]
            }
        case .clearHistory:
            break
        }
    }

    /// The next (or previous) choice after `current`, wrapping; a value between choices steps to
    /// its neighbour in that direction.
    static func step<T: Comparable>(_ choices: [T], from current: T, forward: Bool) -> T {
        if forward { return choices.first { $0 > current } ?? choices[0] }
        return choices.last { $0 < current } ?? choices[choices.count - 1]
    }
}
