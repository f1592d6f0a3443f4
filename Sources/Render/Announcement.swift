import CaptureMode
import Domain
import Foundation
import TabShell

/// The announcement line of screen-reader mode: one plain sentence, on the terminal's last row,
/// saying what the screen is now and what just happened (a toast, an alert, a tab, capture
/// opening or moving on). It is a function of the state alone, so it changes exactly when one
/// of those does, and a reader that speaks what changes on screen speaks it; the rows that
/// move with the arrows are read where the cursor is, not here.
enum Announcement {
    static func text(for state: AppState, context: RenderContext) -> String {
        if state.focus == .tooSmall {
            let minimum = Layout.minimumSize
            return "Too small: need \(minimum.columns) by \(minimum.rows + 1)."
        }
        switch state.presentation {
        case let .alert(alert, _):
            return text(of: alert, context: context)
        case let .fullScreenCapture(capture) where capture.isConfirmingClose:
            return text(of: .confirmCaptureClose(capture), context: context)
        default:
            break
        }
        if let status = state.status { return status.mark(context.glyphs) + context.line(status.text) }
        switch state.presentation {
        case .none, .alert:
            return tab(of: state, context: context)
        case let .sheet(.help(help)):
            let count = KeyMap.helpLines(in: state, unicode: false).count
            let first = min(max(0, help.scrollOffset), max(0, count - 1)) + 1
            return "Keys for this screen, from line \(first) of \(count).\(scrollAndClose(in: state, closing: .escapePressed))"
        case let .sheet(.search(search)):
            return "Search History. \(searchSummary(search, down: KeyMap.keyName(sending: .listMoved(.down), in: state)))"
        case let .fullScreenCapture(capture):
            return self.capture(capture, in: state, context: context)
        case let .viewer(viewer, _):
            let photo = viewer.current
            return "Photo \(viewer.position.replacingOccurrences(of: "/", with: " of ")): \(context.line(photo.name)), \(PhotoFacts.describe(photo, glyphs: context.glyphs))."
        }
    }

    // MARK: - Parts

    /// "Alert: Discard this capture? Keep editing focused; buttons Keep editing (n), Discard (y).
    /// Close throws away…": what to press first, the message last (the box shows it whole).
    static func text(of alert: Alert, context: RenderContext) -> String {
        let buttons = alert.buttons.map { button in button.title + (button.key.map { " (\($0))" } ?? "") }
        var text = "Alert: \(context.line(alert.title))"
        if !text.hasSuffix("?"), !text.hasSuffix(".") { text += "." }
        if alert.buttons.indices.contains(alert.defaultButton) { text += " \(alert.buttons[alert.defaultButton].title) focused;" }
        text += " buttons \(buttons.joined(separator: ", "))."
        return text + " " + context.line(alert.message)
    }

    private static func tab(of state: AppState, context: RenderContext) -> String {
        switch state.selectedTab {
        case .inbox:
            let inbox = state.inbox
            guard inbox.hasLoaded else { return "Inbox tab, loading." }
            let requests = Count.noun(inbox.listCount, "request") + (inbox.hasMore ? " or more" : "")
            var text = "Inbox tab, \(requests), \(Count.grouped(inbox.pendingCount)) pending"
            if let chosen = inbox.requests.first(where: { $0.id == inbox.chosenRequestID }) {
                text += ". Create captures for \(context.line(chosen.title))"
            }
            return text + "."
        case .history:
            let history = state.history
            if let detail = history.detail {
                return "History, record \(detail.record.id), \(detail.record.kind.title)."
            }
            guard history.hasLoaded else { return "History tab, loading." }
            return "History tab, \(Count.noun(history.totalCount, "record")), \(history.browseMode.title)."
        case .settings:
            // A change is said with its new value; the row under the cursor does not change
            // place, so a reader would not speak it again.
            if let row = state.settingsScreen.changedRow { return SettingsView(state: state, context: context).changeSentence(for: row) }
            return "Settings tab; changes apply at once."
        }
    }

    // MARK: - Keys

    /// " Up and Down scroll, Esc closes.", from the keys in force; what no key does is left out.
    private static func scrollAndClose(in state: AppState, closing: AppAction) -> String {
        var clauses: [String] = []
        switch (KeyMap.keyName(sending: .listMoved(.up), in: state), KeyMap.keyName(sending: .listMoved(.down), in: state)) {
        case let (up?, down?): clauses.append("\(up) and \(down) scroll")
        case let (up?, nil): clauses.append("\(up) scrolls up")
        case let (nil, down?): clauses.append("\(down) scrolls down")
        case (nil, nil): break
        }
        if let close = KeyMap.keyName(sending: closing, in: state) { clauses.append("\(close) closes") }
        return clauses.isEmpty ? "" : " " + clauses.joined(separator: ", ") + "."
    }

    private static func searchSummary(_ search: SearchState, down: String?) -> String {
        if search.trimmedQuery.isEmpty { return "Type to find codes, notes and request titles." }
        var text = search.isQuerySelected ? "The query is selected; typing replaces it. " : ""
        if search.isSearching { return text + "Searching..." }
        switch search.resultCount {
        case 0: text += "No records match."
        case 1: text += "1 record matches."
        case let count: text += "\(count) records match."
        }
        if search.results.isEmpty { return text }
        if search.resultsHaveFocus { return text + " Result \((search.part?.offset ?? 0) + search.list.cursor + 1) of \(search.resultCount)." }
        return text + (down.map { " \($0) moves into the results." } ?? "")
    }

    /// Done's save in a line's words (the message line's sentence is longer than the line): how
    /// long it has waited, and the answer to a key pressed meanwhile.
    private static func savingWords(_ saving: PendingSave) -> String {
        let waited = saving.waitedSeconds >= PendingSave.patienceSeconds ? ", \(saving.waitedSeconds) s" : ""
        switch saving.currentReply {
        case .closeWaits?: return "saving\(waited); Esc waits, the capture is safe as a draft."
        case .captureLocked?: return "saving\(waited); the capture cannot change now."
        case .alreadySaving?: return "saving\(waited); Done is already saving."
        case nil: return waited.isEmpty ? "saving..." : "saving\(waited), no answer yet; kept as a draft."
        }
    }

    private static func capture(_ capture: CaptureState, in state: AppState, context: RenderContext) -> String {
        let kind = capture.kind.map { "Capture \($0.title)" } ?? "Capture"
        if let saving = capture.saving, !capture.isShowingKeys { return "\(kind): \(savingWords(saving))" }
        if let notice = capture.notice { return "\(kind): \(context.glyphs.error) \(context.line(notice))" }
        if capture.isShowingKeys { return "\(kind): keys for this step.\(scrollAndClose(in: state, closing: .capture(.keysToggled)))" }
        let steps = capture.steps
        let current: CapturePhase = capture.focus == .review ? .review : capture.phase
        let place = steps.count > 1 ? steps.firstIndex(of: current).map { " (step \($0 + 1) of \(steps.count))" } ?? "" : ""
        let phase: String
        switch capture.focus {
        case .picker:
            phase = "choose what to capture, \(capture.pickerKinds.count) kinds"
        case .barcode:
            if let toast = capture.scanToast {
                phase = "scanned \(context.line(toast.summary)), \(toast.symbology.title)"
            } else if let error = capture.barcodeError {
                phase = "\(context.glyphs.error) \(error.message)"
            } else if capture.kind == .batch, let message = capture.batchMessage {
                phase = context.line(message)
            } else {
                phase = capture.kind == .batch ? "scan codes; \(capture.batch.isEmpty ? "no scans yet" : capture.batch.summary)" : "type or scan the code"
            }
        case .photos:
            if let copy = capture.copy {
                phase = "copying \(context.line(copy.name))"
            } else if let message = capture.photoMessage {
                phase = message.kind == .problem ? "\(context.glyphs.error) \(context.line(message.text))" : context.line(message.text)
            } else {
                phase = "add photos, \(capture.photos.count) of \(capture.config.maximumPhotos) added; type a file's path"
            }
        case .note:
            phase = "write the note"
        case .review:
            let code = capture.barcode.map { " \(context.line($0.summary)), \($0.symbology.title);" } ?? ""
            let keys = [
                KeyMap.keyName(sending: .capture(.enterPressed), in: state).map { "\($0) saves" },
                KeyMap.keyName(sending: .capture(.closeTapped), in: state).map { "\($0) offers to discard" },
            ].compactMap { $0 }
            phase = "review\(code)" + (keys.isEmpty ? "" : " " + keys.joined(separator: ", "))
        case .keys, .confirmClose:
            phase = ""
        }
        let request = capture.request.map { " for \(context.line($0.title))" } ?? ""
        return "\(kind)\(request)\(place): \(phase)."
    }
}
