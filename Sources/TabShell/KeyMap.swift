import CaptureMode
import Foundation

/// Where a set of key bindings applies.
public enum KeyContext: String, CaseIterable, Sendable {
    case tabs, inbox, history, historyDetail, settings
    case capturePicker, captureBarcode, capturePhotos, captureNote, captureReview, captureConfirmClose
    case search, help, alert, confirm

    public var title: String {
        switch self {
        case .tabs: "Everywhere in the tab shell"
        case .inbox: "Inbox"
        case .history: "History"
        case .historyDetail: "History record"
        case .settings: "Settings"
        case .capturePicker: "Capture: choose a kind"
        case .captureBarcode: "Capture: barcode"
        case .capturePhotos: "Capture: photos"
        case .captureConfirmClose: "Capture: discard staged photos?"
        case .captureNote: "Capture: note"
        case .captureReview: "Capture: review"
        case .search: "Search"
        case .help: "This help"
        case .alert: "Alerts"
        case .confirm: "Questions (delete, clear all)"
        }
    }
}

/// One entry of the key table: keys, what they do, and how hints and help describe them.
public struct KeyBinding: Sendable {
    public let keys: [Key]
    /// A short word or two for the hint line; nil keeps the binding out of the hint line.
    public let hint: String?
    /// A sentence for the help screen.
    public let help: String
    /// The action sent; nil for keys handled as text input (listed for help only).
    public let action: AppAction?

    public init(_ keys: [Key], hint: String? = nil, help: String, action: AppAction?) {
        self.keys = keys
        self.hint = hint
        self.help = help
        self.action = action
    }

    /// "↑/k" style label.
    public func label(unicode: Bool) -> String {
        keys.map { $0.label(unicode: unicode) }.joined(separator: "/")
    }
}

/// A line of the help screen.
public enum HelpLine: Equatable, Sendable {
    case section(String)
    case binding(keys: String, help: String)
}

/// The one key table: maps keys to actions for the current state, and produces the hint line
/// and the help screen from the same entries, so they cannot drift apart.
public enum KeyMap {
    // MARK: - The table

    static func listMoves(_ noun: String) -> [KeyBinding] {
        [
            KeyBinding([.up, .character("k")], hint: "move", help: "Previous \(noun)", action: .listMoved(.up)),
            KeyBinding([.down, .character("j")], help: "Next \(noun)", action: .listMoved(.down)),
            KeyBinding([.pageUp], help: "Page up", action: .listMoved(.pageUp)),
            KeyBinding([.pageDown], help: "Page down", action: .listMoved(.pageDown)),
            KeyBinding([.home, .character("g")], help: "First \(noun)", action: .listMoved(.home)),
            KeyBinding([.end, .character("G")], help: "Last \(noun)", action: .listMoved(.end)),
        ]
    }

    static func scrollMoves() -> [KeyBinding] {
        [
            KeyBinding([.up, .character("k")], hint: "scroll", help: "Scroll up", action: .listMoved(.up)),
            KeyBinding([.down, .character("j")], help: "Scroll down", action: .listMoved(.down)),
            KeyBinding([.pageUp], help: "Page up", action: .listMoved(.pageUp)),
            KeyBinding([.pageDown], help: "Page down", action: .listMoved(.pageDown)),
            KeyBinding([.home, .character("g")], help: "Top", action: .listMoved(.home)),
            KeyBinding([.end, .character("G")], help: "Bottom", action: .listMoved(.end)),
        ]
    }

    static let close = KeyBinding([.escape], hint: "close", help: "Close capture: nothing is saved", action: .capture(.closeTapped))
    static let done = KeyBinding([.control("d")], hint: "done", help: "Done: save the capture", action: .capture(.doneTapped))
    static let textEditing = KeyBinding(
        [.left, .right, .home, .end, .backspace, .delete, .control("u")],
        help: "Edit the text (Ctrl-U deletes to the start of the line)", action: nil
    )

    public static func bindings(for context: KeyContext) -> [KeyBinding] {
        switch context {
        case .tabs:
            return [
                KeyBinding([.right, .character("l"), .tab], hint: "tabs", help: "Next tab (skips + Create)", action: .nextTabRequested),
                KeyBinding([.left, .character("h"), .backTab], help: "Previous tab (skips + Create)", action: .previousTabRequested),
                KeyBinding([.character("1")], help: "Inbox", action: .tabChosen(.inbox)),
                KeyBinding([.character("2"), .character("+")], hint: "create", help: "+ Create: open capture mode", action: .tabChosen(.create)),
                KeyBinding([.character("3")], help: "History", action: .tabChosen(.history)),
                KeyBinding([.character("4")], help: "Settings", action: .tabChosen(.settings)),
                KeyBinding([.character("/")], hint: "search", help: "Search History: codes, notes and request titles", action: .searchRequested),
                KeyBinding([.character("?")], hint: "keys", help: "Show every key", action: .helpRequested),
                KeyBinding([.character("q"), .control("c")], hint: "quit", help: "Quit", action: .quitRequested),
                // The terminal layer repaints on Ctrl-L itself (in every screen); listed here so
                // that `?` and docs/keys.md show it.
                KeyBinding([.control("l")], help: "Repaint the screen", action: nil),
            ]
        case .inbox:
            return [
                KeyBinding([.enter], hint: "capture", help: "Capture for the highlighted request", action: .rowActivated),
                KeyBinding([.character(" ")], hint: "choose", help: "Choose the request + Create captures for", action: .requestChoiceToggled),
            ] + listMoves("request")
        case .history:
            return [
                KeyBinding([.enter], hint: "open", help: "Open the highlighted record", action: .rowActivated),
                KeyBinding([.character("b")], hint: "mode", help: "Browse mode: All, By request, By kind", action: .browseModeCycled),
                KeyBinding([.character("d"), .delete], hint: "delete", help: "Delete the highlighted record (asks first)", action: .deleteRequested),
                KeyBinding([.character("D")], help: "Clear History: delete every record (asks first)", action: .clearAllRequested),
            ] + listMoves("record")
        case .historyDetail:
            return [
                KeyBinding([.escape, .backspace], hint: "back", help: "Back to the list", action: .backRequested),
                KeyBinding([.character("d"), .delete], hint: "delete", help: "Delete this record and its photos (asks first)", action: .deleteRequested),
            ] + scrollMoves()
        case .settings:
            return [
                KeyBinding([.enter, .character(" ")], hint: "change", help: "Change the highlighted setting", action: .rowActivated),
            ] + listMoves("setting")
        case .capturePicker:
            return [
                KeyBinding([.up, .character("k")], hint: "move", help: "Previous kind", action: .capture(.pickerCursorMoved(by: -1))),
                KeyBinding([.down, .character("j")], help: "Next kind", action: .capture(.pickerCursorMoved(by: 1))),
                KeyBinding([.enter], hint: "choose", help: "Capture the highlighted kind", action: .capture(.pickerConfirmed)),
                KeyBinding([.character("b")], help: "Barcode", action: .capture(.kindChosen(.barcode))),
                KeyBinding([.character("p")], help: "Photos", action: .capture(.kindChosen(.photos))),
                KeyBinding([.character("r")], help: "Product: a barcode, then photos", action: .capture(.kindChosen(.product))),
                KeyBinding([.character("n")], help: "Note", action: .capture(.kindChosen(.note))),
                close, done,
                KeyBinding([.character("q")], help: "Quit tabshell", action: .quitRequested),
            ]
        case .captureBarcode:
            return [
                KeyBinding([.enter], hint: "check", help: "Check the code (a scanner sends Enter itself)", action: .capture(.enterPressed)),
                close, done, textEditing,
                KeyBinding([.control("s")], help: "Product: skip the barcode and go to photos", action: .capture(.skipTapped)),
                KeyBinding([.paste("")], help: "A pasted code is checked at once", action: nil),
            ]
        case .capturePhotos:
            return [
                KeyBinding([.enter], hint: "add", help: "Add the typed file; with an empty field, go to review", action: .capture(.enterPressed)),
                KeyBinding([.tab], hint: "complete", help: "Complete the file path", action: .capture(.completionRequested)),
                KeyBinding([.control("x")], hint: "remove", help: "Remove the highlighted photo (also Del on an empty field)", action: .capture(.photoRemovalRequested)),
                KeyBinding([.up, .down], help: "Highlight a staged photo", action: nil),
                close, done, textEditing,
                KeyBinding([.paste("")], help: "A pasted or dropped path is added at once", action: nil),
            ]
        case .captureConfirmClose:
            return [
                KeyBinding([.character("y"), .enter], hint: "discard", help: "Discard the staged photos and close", action: .capture(.closeConfirmed)),
                KeyBinding([.character("n"), .escape], hint: "keep", help: "Keep capturing", action: .capture(.closeCancelled)),
            ]
        case .captureNote:
            return [
                KeyBinding([.enter], help: "New line", action: .capture(.enterPressed)),
                KeyBinding([.up, .down], help: "Move between lines", action: nil),
                close, done, textEditing,
            ]
        case .captureReview:
            return [
                // Enter, not Done: during the scan toast Enter only moves on to review, so a
                // scanner that ends with CR+LF cannot save without a review.
                KeyBinding([.enter], help: "Continue; on review, save the capture", action: .capture(.enterPressed)),
                KeyBinding([.character("r")], help: "Retake: back to photos", action: .capture(.retakeTapped)),
                close, done,
                KeyBinding([.character("q")], help: "Quit tabshell", action: .quitRequested),
            ]
        case .search:
            return [
                KeyBinding([.enter], hint: "open", help: "Open the highlighted result in History", action: .rowActivated),
                KeyBinding([.up], hint: "results", help: "Previous result", action: .listMoved(.up)),
                KeyBinding([.down], help: "Next result", action: .listMoved(.down)),
                KeyBinding([.pageUp], help: "Results page up", action: .listMoved(.pageUp)),
                KeyBinding([.pageDown], help: "Results page down", action: .listMoved(.pageDown)),
                KeyBinding([.escape], hint: "close", help: "Close search: back where you were", action: .escapePressed),
                KeyBinding(
                    [.left, .right, .home, .end, .backspace, .delete, .control("u")],
                    help: "Edit the search (Ctrl-U clears to the start); typing matches as you type", action: nil
                ),
                KeyBinding([.paste("")], help: "A paste goes into the search", action: nil),
            ]
        case .help:
            return [
                KeyBinding([.up, .down, .pageUp, .pageDown], hint: "scroll", help: "Scroll", action: nil),
                KeyBinding([.escape, .character("?"), .character("q")], hint: "close", help: "Close this help", action: .escapePressed),
            ]
        case .alert:
            return [KeyBinding([.enter, .escape, .character(" ")], hint: "OK", help: "Dismiss the alert", action: .alertDismissed)]
        case .confirm:
            return [
                KeyBinding([.enter], hint: "default", help: "Press the highlighted button (Cancel for Clear History)", action: nil),
                KeyBinding([.character("y"), .character("n")], help: "Press the button with that letter: y yes, n no", action: nil),
                KeyBinding([.escape], hint: "cancel", help: "Cancel: close the question, change nothing", action: .alertDismissed),
            ]
        }
    }

    // MARK: - Lookup

    /// The contexts in force, most specific first.
    public static func contexts(for state: AppState) -> [KeyContext] {
        switch state.presentation {
        case let .alert(alert, _): return [alert.isConfirmation ? .confirm : .alert]
        case .sheet(.help): return [.help]
        case .sheet(.search): return [.search]
        case let .fullScreenCapture(capture):
            if capture.isConfirmingClose { return [.captureConfirmClose] }
            switch capture.phase {
            case .picker: return [.capturePicker]
            case .barcode: return capture.barcode == nil ? [.captureBarcode] : [.captureReview]
            case .photos: return [.capturePhotos]
            case .note: return [.captureNote]
            case .review: return [.captureReview]
            }
        case .none:
            switch state.selectedTab {
            case .inbox: return [.inbox, .tabs]
            case .history: return state.history.stack.isEmpty ? [.history, .tabs] : [.historyDetail, .tabs]
            case .settings: return [.settings, .tabs]
            case .create: return [.tabs]
            }
        }
    }

    /// The action a key sends in this state, or nil when the key means nothing here.
    public static func action(for key: Key, in state: AppState) -> AppAction? {
        let contexts = contexts(for: state)
        if let alert = state.presentation.alert, alert.isConfirmation {
            switch key {
            case .enter: return .alertButtonPressed(alert.defaultButton)
            case let .character(c): if let index = alert.buttonIndex(for: c) { return .alertButtonPressed(index) }
            default: break
            }
        }
        if case .sheet(.help) = state.presentation {
            switch key {
            case .up, .character("k"): return .listMoved(.up)
            case .down, .character("j"): return .listMoved(.down)
            case .pageUp: return .listMoved(.pageUp)
            case .pageDown, .character(" "): return .listMoved(.pageDown)
            case .home: return .listMoved(.home)
            case .end: return .listMoved(.end)
            default: break
            }
        }
        for context in contexts {
            for binding in bindings(for: context) where binding.keys.contains(key) {
                if let action = binding.action { return action }
            }
        }
        if state.presentation.search != nil {
            return searchEdit(for: key).map(AppAction.searchEdited)
        }
        guard let capture = state.presentation.capture, state.presentation.alert == nil, capture.isEditingText else {
            return nil
        }
        switch key {
        case let .character(c): return .capture(.textTyped(String(c)))
        case let .paste(text): return .capture(.textPasted(text))
        case .backspace: return .capture(.backspacePressed)
        case .delete: return .capture(.deletePressed)
        case .control("u"): return .capture(.deleteToLineStartPressed)
        case .left: return .capture(.cursorMoved(.left))
        case .right: return .capture(.cursorMoved(.right))
        case .up: return .capture(.cursorMoved(.up))
        case .down: return .capture(.cursorMoved(.down))
        case .home: return .capture(.cursorMoved(.home))
        case .end: return .capture(.cursorMoved(.end))
        case .tab: return capture.phase == .note ? .capture(.textTyped("    ")) : nil
        default: return nil
        }
    }

    /// What a key does to the search query (keys the table does not bind).
    private static func searchEdit(for key: Key) -> TextEdit? {
        switch key {
        case let .character(c): .typed(String(c))
        case let .paste(text): .pasted(text)
        case .backspace: .backspace
        case .delete: .deleteForward
        case .control("u"): .deleteToLineStart
        case .left: .moved(.left)
        case .right: .moved(.right)
        case .home: .moved(.home)
        case .end: .moved(.end)
        default: nil
        }
    }

    // MARK: - Hints and help

    /// The hint line's entries for this state: (keys, word).
    public static func hints(for state: AppState, unicode: Bool) -> [(keys: String, hint: String)] {
        contexts(for: state).flatMap { context in
            bindings(for: context).compactMap { binding in
                binding.hint.map { (hintLabel(binding, context: context, unicode: unicode), $0) }
            }
        }
    }

    private static func hintLabel(_ binding: KeyBinding, context: KeyContext, unicode: Bool) -> String {
        switch binding.action {
        case .nextTabRequested?: return unicode ? "←→" : "<>"
        case .listMoved(.up)?, .capture(.pickerCursorMoved)?: return unicode ? "↑↓" : "Up/Dn"
        default: return binding.keys.first.map { $0.label(unicode: unicode) } ?? ""
        }
    }

    /// Every binding, grouped by context, for the help sheet.
    public static func helpLines(unicode: Bool) -> [HelpLine] {
        KeyContext.allCases.flatMap { context -> [HelpLine] in
            [.section(context.title)] + bindings(for: context).map {
                .binding(keys: $0.label(unicode: unicode), help: $0.help)
            }
        }
    }
}
