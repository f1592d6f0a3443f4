import CaptureMode
import Foundation

/// Handing an action to one feature's reducer, with the part of the layout it needs, and
/// carrying out what the feature asks of the shell.
extension AppState {
    mutating func toInbox(_ action: InboxAction) -> [AppEffect] {
        apply(inbox.send(action, viewport: layout.inboxListRows))
    }

    mutating func toHistory(_ action: HistoryAction) -> [AppEffect] {
        guard case .copyRequested = action else { return apply(history.send(action, layout: layout)) }
        // What a copy's sentence names: the keys in force.
        let keys = HistoryCopyKeys(
            open: KeyMap.keyName(sending: .rowActivated, in: self), copyJSON: KeyMap.keyName(sending: .history(.copyRequested(.exportLine)), in: self))
        return apply(history.send(action, layout: layout, keys: keys))
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
        let outcome = help.send(action, rows: layout.helpRows, lineCount: KeyMap.helpLines(in: self, unicode: true).count)
        presentation = .sheet(.help(help))
        return apply(outcome)
    }

    mutating func toDrafts(_ action: DraftsAction) -> [AppEffect] {
        apply(drafts.send(action))
    }

    /// Carries out what a feature asked of the shell; returns the feature's effects and any the
    /// requests led to.
    mutating func apply(_ outcome: Outcome) -> [AppEffect] {
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
        if let note = environment.clipboardNote, var message = status, message.kind == .success,
            effects.contains(where: { if case .copyToClipboard = $0 { true } else { false } })
        {
            // Inside tmux that drops OSC 52: the note stays until the next key, unlike a success.
            message.text += " " + note
            message.kind = .info
            status = message
        }
        return effects
    }
}
