import CaptureMode
import Foundation

extension AppState {
    /// The tab shell's reducer: applies one action, returns the effects to perform.
    public mutating func send(_ action: AppAction) -> [AppEffect] {
        switch action {
        case .started:
            return [.loadInbox] + historyLoadIfNeeded()

        case let .resized(newSize):
            size = newSize
            clampLists()
            if case let .sheet(.help(offset)) = presentation {
                presentation = .sheet(.help(scrollOffset: clampedHelpOffset(offset)))
            }
            return historyLoadIfNeeded()

        case .quitRequested:
            isQuitting = true
            return [.quit]

        case let .tabChosen(tab):
            guard presentation == .none || presentation.sheet != nil else { return [] }
            presentation = .none
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
            if case let .sheet(.help(offset)) = presentation {
                presentation = .sheet(.help(scrollOffset: clampedHelpOffset(helpOffset(offset, after: move))))
                return []
            }
            guard presentation == .none else { return [] }
            status = nil
            switch selectedTab {
            case .inbox:
                inbox.list.move(move, count: inbox.requests.count, viewport: layout.inboxListRows)
            case .history:
                guard history.stack.isEmpty else { return [] }
                history.list.move(move, count: history.totalCount, viewport: layout.historyListRows)
                return historyLoadIfNeeded()
            case .settings:
                settingsScreen.list.move(move, count: SettingsRow.allCases.count, viewport: layout.settingsListRows)
            case .create:
                break
            }
            return []

        case .rowActivated:
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
                history.stack.append(.detail(row))
                return []
            case .settings:
                guard let row = SettingsRow(rawValue: settingsScreen.list.cursor) else { return [] }
                return send(.settingCycled(row, forward: true))
            case .create:
                return []
            }

        case let .rowClicked(index):
            guard presentation == .none else { return [] }
            switch selectedTab {
            case .inbox:
                guard inbox.requests.indices.contains(index) else { return [] }
                if inbox.list.cursor == index { return send(.rowActivated) }
                inbox.list.cursor = index
                inbox.list.clamp(count: inbox.requests.count, viewport: layout.inboxListRows)
            case .history:
                guard history.stack.isEmpty, (0..<history.totalCount).contains(index) else { return [] }
                if history.list.cursor == index { return send(.rowActivated) }
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
            settings.cycle(row, forward: forward)
            if let index = SettingsRow.allCases.firstIndex(of: row) {
                settingsScreen.list.cursor = index
                settingsScreen.list.clamp(count: SettingsRow.allCases.count, viewport: layout.settingsListRows)
            }
            clampLists()
            return [.saveSettings(settings)]

        case .backRequested:
            guard presentation == .none else { return [] }
            if selectedTab == .history, !history.stack.isEmpty {
                history.stack.removeLast()
            }
            return []

        case .escapePressed:
            switch presentation {
            case let .alert(_, over):
                presentation = over
                return []
            case .sheet:
                presentation = .none
                return []
            case .fullScreenCapture:
                return send(.capture(.closeTapped))
            case .none:
                return send(.backRequested)
            }

        case .helpRequested:
            switch presentation {
            case .none: presentation = .sheet(.help(scrollOffset: 0))
            case .sheet: presentation = .none
            case .fullScreenCapture, .alert: break
            }
            return []

        case .alertDismissed:
            if case let .alert(_, over) = presentation { presentation = over }
            return []

        case let .capture(captureAction):
            guard case var .fullScreenCapture(capture) = presentation else { return [] }
            let effects = capture.send(captureAction)
            presentation = .fullScreenCapture(capture)
            var out: [AppEffect] = []
            for effect in effects { out += handle(effect) }
            return out

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
            if let pending = history.pendingLoad, pending.start != page.start {
                return []
            }
            history.pendingLoad = nil
            history.hasLoaded = true
            history.window = page
            history.totalCount = page.totalCount
            history.list.clamp(count: history.totalCount, viewport: layout.historyListRows)
            return historyLoadIfNeeded()

        case let .captureCommitted(_, submission):
            presentation = .none
            selectedTab = snapBackTarget
            history.list = ListPosition()
            history.stack = []
            history.window = HistoryPage(start: 0, rows: [], totalCount: history.totalCount + 1)
            history.totalCount += 1
            history.pendingLoad = nil
            if submission.requestID == inbox.chosenRequestID { inbox.chosenRequestID = nil }
            status = StatusMessage("Saved \(submission.kind.title.lowercased()) to History.", kind: .success)
            return [.loadInbox] + historyLoadIfNeeded()

        case let .captureCommitFailed(message):
            return send(.capture(.commitFailed(message)))

        case let .storageFailed(message):
            history.pendingLoad = nil
            status = StatusMessage(message, kind: .error)
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
                    message: "This version captures barcodes and notes. The request stays pending."
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

    // MARK: - Lists

    private mutating func clampLists() {
        inbox.list.clamp(count: inbox.requests.count, viewport: layout.inboxListRows)
        history.list.clamp(count: history.totalCount, viewport: layout.historyListRows)
        settingsScreen.list.clamp(count: SettingsRow.allCases.count, viewport: layout.settingsListRows)
    }

    /// Asks for the History rows around the visible range when the loaded window does not cover it.
    private mutating func historyLoadIfNeeded() -> [AppEffect] {
        let viewport = layout.historyListRows
        let first = history.list.scrollOffset
        let window = history.window
        if history.hasLoaded {
            let last = min(history.totalCount, first + viewport)
            let covered = first >= window.start && last <= window.start + window.rows.count
            if last <= first || covered { return [] }
        }
        let request = HistoryPageRequest(start: max(0, first - viewport), count: viewport * 3)
        guard history.pendingLoad != request else { return [] }
        history.pendingLoad = request
        return [.loadHistory(request)]
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
    /// Steps one setting to its next (or previous) value.
    public mutating func cycle(_ row: SettingsRow, forward: Bool) {
        switch row {
        case .snapBackTarget: snapBackTarget = snapBackTarget == .lastTab ? .history : .lastTab
        case .captureGating: captureGating.toggle()
        case .tabBarPosition: tabBarPosition = tabBarPosition == .bottom ? .top : .bottom
        case .colorEnabled: colorEnabled.toggle()
        case .freeTextCodes: allowFreeTextCodes.toggle()
        case .autoAdvance:
            let choices = Settings.autoAdvanceChoices
            let current = autoAdvanceMilliseconds
            if forward {
                autoAdvanceMilliseconds = choices.first { $0 > current } ?? choices[0]
            } else {
                autoAdvanceMilliseconds = choices.last { $0 < current } ?? choices[choices.count - 1]
            }
        }
    }
}
