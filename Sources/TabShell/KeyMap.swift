import CaptureMode
import Domain
import Foundation

/// Where a set of key bindings applies; its raw value is its title in help and docs/keys.md.
public enum KeyContext: String, CaseIterable, Sendable {
    case tabs = "Everywhere in the tab shell"
    case inbox = "Inbox"
    case history = "History"
    case historyDetail = "History record"
    case settings = "Settings"
    case capturePicker = "Capture: choose a kind"
    case captureBarcode = "Capture: barcode"
    case capturePhotos = "Capture: photos"
    case captureNote = "Capture: note"
    case captureReview = "Capture: review"
    case captureConfirmClose = "Capture: discard what it holds?"
    case captureKeys = "Capture: these keys"
    case search = "Search"
    case help = "This help"
    case alert = "Alerts"
    case confirm = "Questions (delete, clear all, resume a draft)"
    /// Showing a staged photo full screen, from capture's photos step or review (previews on).
    case capturePhotoView = "Capture: photos and review, with previews on"
    /// The full-screen photo viewer.
    case photoViewer = "Photo viewer"
    /// Below the minimum size, where only the "too small" notice shows.
    case tooSmall = "Terminal too small (only these keys act)"
    /// Keys that work on every screen.
    case global = "On every screen"

    public var title: String { rawValue }
}

/// Which keys a binding answers to.
public enum KeyPattern: Hashable, Sendable {
    case key(Key)
    /// Any printable character: text typed into a field.
    case anyCharacter
    /// Any bracketed paste: text pasted (or a file dropped) into a field.
    case anyPaste

    public func matches(_ key: Key) -> Bool {
        switch (self, key) {
        case let (.key(bound), key): bound == key
        case (.anyCharacter, .character): true
        case (.anyPaste, .paste): true
        default: false
        }
    }

    public func label(unicode: Bool) -> String {
        switch self {
        case let .key(key): key.label(unicode: unicode)
        case .anyCharacter: "text"
        case .anyPaste: "Paste"
        }
    }
}

/// The text field a binding edits.
public enum TextTarget: Equatable, Sendable {
    /// The focused field of capture mode: the barcode, the photo path or the note.
    case captureField
    /// The search sheet's query.
    case searchQuery
}

/// What a binding does with the key pressed.
public enum KeyCommand: Equatable, Sendable {
    /// Send this action.
    case send(AppAction)
    /// Edit the text of a field: the key becomes a `TextEdit` (typed text, a paste, Backspace,
    /// Del, Ctrl-U or a cursor move) for that field.
    case edit(TextTarget)
}

/// One entry of the key table: keys, what they do, and how hints and help describe them.
public struct KeyBinding: Sendable {
    /// The action's stable snake_case name, as config.toml's `[keys]` and docs/keys.md write it
    /// (`create`, `move_up`): the same name wherever the binding appears, always with the same
    /// default keys.
    public let name: String
    public let patterns: [KeyPattern]
    /// A short word or two for the hint line; nil keeps the binding out of the hint line.
    public let hint: String?
    /// A sentence for the help screen.
    public let help: String
    public let command: KeyCommand
    /// False for bindings whose keys are their meaning (typing, pasting, the editing keys, a
    /// question's letters): config.toml cannot rebind them.
    public let isRebindable: Bool

    public init(_ name: String, _ patterns: [KeyPattern], hint: String? = nil, help: String, command: KeyCommand, rebindable: Bool? = nil) {
        self.name = name
        self.patterns = patterns
        self.hint = hint
        self.help = help
        self.command = command
        let onKeysOnly = patterns.allSatisfy { if case .key = $0 { true } else { false } }
        let sends = if case .send = command { true } else { false }
        isRebindable = rebindable ?? (onKeysOnly && sends)
    }

    public init(_ name: String, _ keys: [Key], hint: String? = nil, help: String, action: AppAction, rebindable: Bool? = nil) {
        self.init(name, keys.map(KeyPattern.key), hint: hint, help: help, command: .send(action), rebindable: rebindable)
    }

    public init(_ name: String, _ keys: [Key], hint: String? = nil, help: String, edit target: TextTarget) {
        self.init(name, keys.map(KeyPattern.key), hint: hint, help: help, command: .edit(target))
    }

    /// The same binding answering to `keys` instead (config.toml's `[keys]`).
    public func rebound(to keys: [Key]) -> KeyBinding {
        KeyBinding(name, keys.map(KeyPattern.key), hint: hint, help: help, command: command, rebindable: isRebindable)
    }

    /// The specific keys listed (not the "any character" and "any paste" patterns).
    public var keys: [Key] {
        patterns.compactMap { if case let .key(key) = $0 { key } else { nil } }
    }

    /// The action the binding sends whatever the key; nil for text editing, whose action
    /// depends on the key (see `action(for:)`).
    public var action: AppAction? {
        if case let .send(action) = command { return action }
        return nil
    }

    public func matches(_ key: Key) -> Bool { patterns.contains { $0.matches(key) } }

    /// The action `key` sends through this binding, or nil when the binding does not take it.
    public func action(for key: Key) -> AppAction? {
        guard matches(key) else { return nil }
        switch command {
        case let .send(action):
            return action
        case let .edit(target):
            guard let edit = TextEdit(key: key) else { return nil }
            switch target {
            case .searchQuery: return .search(.edited(edit))
            case .captureField: return .capture(CaptureAction(edit))
            }
        }
    }

    /// "↑/k" style label.
    public func label(unicode: Bool) -> String {
        patterns.map { $0.label(unicode: unicode) }.joined(separator: "/")
    }
}

extension TextEdit {
    /// What a key does to a text field, if it edits one.
    public init?(key: Key) {
        switch key {
        case let .character(c): self = .typed(String(c))
        case let .paste(text): self = .pasted(text)
        case .backspace: self = .backspace
        case .delete: self = .deleteForward
        case .control("u"): self = .deleteToLineStart
        case .left: self = .moved(.left)
        case .right: self = .moved(.right)
        case .up: self = .moved(.up)
        case .down: self = .moved(.down)
        case .home: self = .moved(.home)
        case .end: self = .moved(.end)
        default: return nil
        }
    }
}

extension CaptureAction {
    /// The capture action for an edit of its focused field.
    init(_ edit: TextEdit) {
        switch edit {
        case let .typed(text): self = .textTyped(text)
        case let .pasted(text): self = .textPasted(text)
        case .backspace: self = .backspacePressed
        case .deleteForward: self = .deletePressed
        case .deleteToLineStart: self = .deleteToLineStartPressed
        case let .moved(motion): self = .cursorMoved(motion)
        }
    }
}

/// A line of the help screen.
public enum HelpLine: Equatable, Sendable {
    case section(String)
    case binding(keys: String, help: String)
}

/// The one key table: maps keys to actions for the current state, and produces the hint line
/// and the help screen from the same entries, so they cannot drift apart. Every key the app
/// reacts to is a binding here; nothing else turns keys into actions.
public enum KeyMap {
    // MARK: - The table

    static func listMoves(_ noun: String) -> [KeyBinding] {
        moves(hint: "move", up: "Previous \(noun)", down: "Next \(noun)", first: "First \(noun)", last: "Last \(noun)")
    }

    static func scrollMoves(pageDown extra: [Key] = []) -> [KeyBinding] {
        moves(hint: "scroll", up: "Scroll up", down: "Scroll down", first: "Top", last: "Bottom", pageDown: extra)
    }

    /// The six moves of a list or a scrolling text, with the same names and keys everywhere;
    /// `extra` keys page down too (a sheet's Space), under a name of their own.
    private static func moves(hint: String, up: String, down: String, first: String, last: String, pageDown extra: [Key] = []) -> [KeyBinding] {
        [
            KeyBinding("move_up", [.up, .character("k")], hint: hint, help: up, action: .listMoved(.up)),
            KeyBinding("move_down", [.down, .character("j")], help: down, action: .listMoved(.down)),
            KeyBinding("page_up", [.pageUp], help: "Page up", action: .listMoved(.pageUp)),
            KeyBinding(extra.isEmpty ? "page_down" : "sheet_page_down", [.pageDown] + extra, help: "Page down", action: .listMoved(.pageDown)),
            KeyBinding("move_first", [.home, .character("g")], help: first, action: .listMoved(.home)),
            KeyBinding("move_last", [.end, .character("G")], help: last, action: .listMoved(.end)),
        ]
    }

    /// Each tab's digit (and `+` for Create), in tab-bar order.
    static var tabDigits: [KeyBinding] {
        Tab.allCases.map { tab in
            switch tab.role {
            case .content:
                KeyBinding(bindingName(of: tab), [.character(tab.key)], help: tab.title, action: .tabChosen(tab))
            case .action:
                KeyBinding(bindingName(of: tab), [.character(tab.key), .character("+")], hint: "create", help: "\(tab.title): open capture mode", action: .tabChosen(tab))
            }
        }
    }

    /// The name a tab's key goes by in the config file's `[keys]` table. Spelled out: naming it
    /// by interpolating the case (`"tab_\(tab)"`) asks the runtime for the case's name, a
    /// conformance scan of the whole binary on every start.
    static func bindingName(of tab: Tab) -> String {
        switch tab {
        case .inbox: "tab_inbox"
        case .create: "create"
        case .history: "tab_history"
        case .settings: "tab_settings"
        }
    }

    /// `y` and `Y` in History's list and a record's detail (OSC 52, docs/keys.md "Copy").
    static let copies = [
        KeyBinding("copy_code", [.character("y")], help: "Copy the record's code (a batch's codes, a note's text) to the clipboard", action: .history(.copyRequested(.code))),
        KeyBinding("copy_json", [.character("Y")], help: "Copy the record as the export's JSON line", action: .history(.copyRequested(.exportLine))),
    ]
    static let close = KeyBinding("capture_close", [.escape], hint: "close", help: "Close capture: nothing is saved", action: .capture(.closeTapped))
    static let done = KeyBinding("capture_done", [.control("d")], hint: "done", help: "Done: save the capture", action: .capture(.doneTapped))
    /// F1 in a text field (where `?` is text); `?` too elsewhere.
    static let captureKeysInField = KeyBinding("capture_keys_in_field", [.function(1)], hint: "keys", help: "Show this screen's keys", action: .capture(.keysToggled))
    static let captureKeys = KeyBinding("capture_keys", [.character("?"), .function(1)], hint: "keys", help: "Show this screen's keys", action: .capture(.keysToggled))
    static func typing(_ help: String = "Type into the field") -> KeyBinding {
        KeyBinding("capture_typing", [.anyCharacter], help: help, command: .edit(.captureField))
    }
    static let textEditing = KeyBinding(
        "capture_editing", [.left, .right, .home, .end, .backspace, .delete, .control("u")],
        help: "Edit the text (Ctrl-U deletes to the start of the line)", edit: .captureField
    )

    /// The bindings of `context` in force: the table's, with the keys config.toml gave
    /// (`state.keyOverrides`) in place of their defaults. In a question (`.confirm`), the letters
    /// are the buttons' own: those of the alert showing in `state`, or, without a state, of
    /// every question the app asks.
    public static func bindings(for context: KeyContext, in state: AppState? = nil) -> [KeyBinding] {
        bindings(for: context, in: state, overrides: state?.keyOverrides ?? .none)
    }

    /// The bindings of `context` with `overrides` in place of their defaults.
    public static func bindings(for context: KeyContext, in state: AppState?, overrides: KeyOverrides) -> [KeyBinding] {
        overrides.apply(to: defaultBindings(for: context, in: state))
    }

    /// The table itself: the bindings of `context` with their default keys.
    public static func defaultBindings(for context: KeyContext, in state: AppState? = nil) -> [KeyBinding] {
        switch context {
        case .global:
            return [
                KeyBinding("redraw", [.control("l")], help: "Repaint the screen", action: .redrawRequested),
                KeyBinding(
                    "interrupt", [.control("c")], help: "Quit; in a capture holding something, ask first as Esc does (Ctrl-C again quits)",
                    action: .interruptRequested),
            ]
        case .tooSmall:
            return [KeyBinding("quit", [.character("q")], hint: "quit", help: "Quit (a capture open is kept as a draft)", action: .quitRequested)]
        case .tabs:
            return [
                KeyBinding("next_tab", [.right, .character("l"), .tab], hint: "tabs", help: "Next tab (skips + Create)", action: .nextTabRequested),
                KeyBinding("previous_tab", [.left, .character("h"), .backTab], help: "Previous tab (skips + Create)", action: .previousTabRequested),
            ] + tabDigits + [
                KeyBinding("search", [.character("/")], hint: "search", help: "Search History: codes, notes and request titles", action: .searchRequested),
                KeyBinding("help", [.character("?"), .function(1)], hint: "keys", help: "Show every key", action: .helpRequested),
                KeyBinding("quit", [.character("q")], hint: "quit", help: "Quit", action: .quitRequested),
            ]
        case .inbox:
            // An empty Inbox has no request to capture for, choose, group or move to.
            guard state.map({ !$0.inbox.requests.isEmpty }) ?? true else { return [] }
            return [
                KeyBinding("inbox_capture", [.enter], hint: "capture", help: "Capture for the highlighted request", action: .rowActivated),
                KeyBinding("inbox_choose", [.character(" ")], hint: "choose", help: "Choose the request + Create captures for", action: .inbox(.choiceToggled)),
                KeyBinding("inbox_group", [.character("b")], help: "Group the requests by requester, or not", action: .inbox(.groupingToggled)),
                // Hinted only where it acts: on a done request.
                KeyBinding(
                    "inbox_reopen", [.character("o")], hint: state?.inbox.highlightedRequest?.status == .done ? "reopen" : nil,
                    help: "Make the highlighted done request pending again", action: .inbox(.reopenRequested)),
                KeyBinding(
                    "inbox_remove", [.character("d"), .delete], hint: "remove", help: "Remove the highlighted request (asks first; its records stay)",
                    action: .inbox(.removeRequested)),
            ] + listMoves("request")
        case .history:
            let mode = KeyBinding(
                "history_mode", [.character("b")], hint: "mode", help: "Browse mode: " + HistoryBrowseMode.allCases.map(\.title).joined(separator: ", "),
                action: .history(.browseModeCycled))
            let clear = KeyBinding("clear_history", [.character("D")], help: "Clear History: delete every record (asks first)", action: .history(.clearAllRequested))
            // An empty History has no record to open, delete or move to.
            guard state.map({ !$0.history.hasLoaded || $0.history.totalCount > 0 }) ?? true else { return [mode, clear] }
            return [
                KeyBinding("history_open", [.enter], hint: "open", help: "Open the highlighted record", action: .rowActivated),
                mode,
                KeyBinding("delete", [.character("d"), .delete], hint: "delete", help: "Delete the highlighted record (asks first)", action: .history(.deleteRequested)),
                clear,
            ] + copies + listMoves("record")
        case .historyDetail:
            // Enter views a photo only where there is a viewer: previews on, photos loaded.
            let views = state.map { $0.previewStyle != nil && $0.history.detail?.photos?.isEmpty == false } ?? true
            return
                (views
                ? [
                    KeyBinding("view_photo", [.enter], hint: "view", help: "Show the highlighted photo full screen (Up and Down highlight another)", action: .photoViewRequested)
                ] : []) + [
                    KeyBinding("back", [.escape, .backspace], hint: "back", help: "Back to the list", action: .history(.backRequested)),
                    KeyBinding("delete", [.character("d"), .delete], hint: "delete", help: "Delete this record and its photos (asks first)", action: .history(.deleteRequested)),
                ] + copies + scrollMoves()
        case .settings:
            // ← and → step a setting's value, as in every settings list; on Clear History,
            // which has no value, they switch tabs again.
            let steps = state.map { SettingsRow(rawValue: $0.settingsScreen.list.cursor)?.isSetting ?? false } ?? true
            let arrows = [
                KeyBinding(
                    "setting_previous", [.left], hint: "change", help: "The highlighted setting's previous value",
                    action: .settings(.highlightedValueStepped(forward: false))),
                KeyBinding(
                    "setting_next", [.right], help: "The highlighted setting's next value", action: .settings(.highlightedValueStepped(forward: true))),
            ]
            return (steps ? arrows : []) + [
                KeyBinding(
                    "settings_change", [.enter, .character(" ")], hint: steps ? nil : "change",
                    help: "Change the highlighted setting (to its next value); on Clear History, ask to delete every record", action: .rowActivated)
            ] + listMoves("setting")
        case .capturePicker:
            return [
                KeyBinding("move_up", [.up, .character("k")], hint: "move", help: "Previous kind", action: .capture(.pickerCursorMoved(by: -1))),
                KeyBinding("move_down", [.down, .character("j")], help: "Next kind", action: .capture(.pickerCursorMoved(by: 1))),
                KeyBinding("picker_choose", [.enter], hint: "choose", help: "Capture the highlighted kind", action: .capture(.pickerConfirmed)),
                KeyBinding("kind_barcode", [.character("b")], help: "Barcode", action: .capture(.kindChosen(.barcode))),
                KeyBinding("kind_photos", [.character("p")], help: "Photos", action: .capture(.kindChosen(.photos))),
                KeyBinding("kind_product", [.character("r")], help: "Product: a barcode, then photos", action: .capture(.kindChosen(.product))),
                KeyBinding("kind_note", [.character("n")], help: "Note", action: .capture(.kindChosen(.note))),
                KeyBinding("kind_batch", [.character("s")], help: "Batch: many scans in a row, counted (stock-take, receiving)", action: .capture(.kindChosen(.batch))),
                close, done, captureKeys,
                KeyBinding("quit", [.character("q")], help: "Quit tabshell", action: .quitRequested),
            ]
        case .captureBarcode:
            // Ctrl-S only where it does something: a Product's barcode (every binding in docs).
            let skips = state.map { $0.presentation.capture?.kind == .product } ?? true
            let undoes = state.map { $0.presentation.capture?.kind == .batch } ?? true
            // The hint offers removing once there is a scan, and putting back once one was removed.
            let scans = state.map { $0.presentation.capture?.batch.isEmpty == false } ?? true
            let restores = state.map { $0.presentation.capture?.removedScans.isEmpty == false } ?? true
            return [
                KeyBinding("barcode_check", [.enter], hint: "check", help: "Check the code (a scanner sends Enter itself)", action: .capture(.enterPressed)),
                close, done,
            ] + (skips ? [KeyBinding("capture_skip", [.control("s")], hint: "skip", help: "Product: skip the barcode and go to photos", action: .capture(.skipTapped))] : [])
                + (undoes
                    ? [
                        // Only these keys take a scan out or put it back: Bksp only edits the field.
                        KeyBinding(
                            "remove_scan", [.control("x")], hint: scans ? "remove" : nil, help: "Batch: remove the last scan (it can be put back)",
                            action: .capture(.scanRemovalRequested)),
                        KeyBinding(
                            "restore_scan", [.control("r")], hint: restores ? "put back" : nil, help: "Batch: put the scan removed last back at its place",
                            action: .capture(.scanRestoreRequested)),
                    ] : [])
                + [
                    captureKeysInField, typing("Type the code"), textEditing,
                    KeyBinding("group_separator", [.control("]")], help: "GS1 group separator (FNC1), as scanners send it (byte 0x1D)", action: .capture(.textTyped("\u{1D}"))),
                    KeyBinding("capture_paste", [.anyPaste], help: "A pasted code is checked at once", command: .edit(.captureField)),
                ]
        case .capturePhotos:
            return [
                KeyBinding("photo_add", [.enter], hint: "add", help: "Add the typed file; with an empty field, go to review", action: .capture(.enterPressed)),
                KeyBinding("path_complete", [.tab], hint: "complete", help: "Complete the file path", action: .capture(.completionRequested)),
                KeyBinding(
                    "photo_remove", [.control("x")], hint: "remove", help: "Remove the highlighted photo (Del only edits the path)", action: .capture(.photoRemovalRequested)),
                KeyBinding("photo_highlight", [.up, .down], help: "Highlight a staged photo", edit: .captureField),
                close, done, captureKeysInField, typing("Type the file path"), textEditing,
                KeyBinding("capture_paste", [.anyPaste], help: "A pasted or dropped path is added at once", command: .edit(.captureField)),
            ]
        case .captureConfirmClose:
            return [
                KeyBinding("keep_editing", [.enter, .character("n"), .escape], hint: "keep editing", help: "Keep editing (the default)", action: .capture(.closeCancelled)),
                KeyBinding("discard", [.character("y")], hint: "discard", help: "Discard what the capture holds and close", action: .capture(.closeConfirmed)),
                KeyBinding(
                    "interrupt", [.control("c")], hint: "quit", help: "Quit tabshell now, keeping the capture as a draft (a --demo session keeps nothing)",
                    action: .interruptRequested),
            ]
        case .captureNote:
            return [
                KeyBinding("note_new_line", [.enter], help: "New line", action: .capture(.enterPressed)),
                KeyBinding("note_indent", [.tab], help: "Indent (four spaces)", action: .capture(.textTyped("    "))),
                KeyBinding("note_lines", [.up, .down], help: "Move between lines", edit: .captureField),
                close, done, captureKeysInField, typing("Type the note"), textEditing,
                KeyBinding("capture_paste", [.anyPaste], help: "A paste goes into the note", command: .edit(.captureField)),
            ]
        case .captureReview:
            // Retake only where there are photos to retake.
            let retakes = state.map { $0.presentation.capture?.collectsPhotos ?? false } ?? true
            return [
                // Enter, not Done: during the scan toast Enter only moves on to review, so a
                // scanner that ends with CR+LF cannot save without a review.
                KeyBinding("review_continue", [.enter], help: "Continue; on review, save the capture", action: .capture(.enterPressed)),
                close, done,
            ] + (retakes ? [KeyBinding("retake", [.character("r")], hint: "retake", help: "Retake: back to photos", action: .capture(.retakeTapped))] : []) + [
                captureKeys,
                KeyBinding("quit", [.character("q")], help: "Quit tabshell", action: .quitRequested),
            ]
        case .captureKeys:
            return scrollMoves(pageDown: [.character(" ")]) + [
                KeyBinding(
                    "capture_keys_close", [.escape, .character("?"), .function(1), .enter, .character("q")], hint: "close", help: "Close this list of keys",
                    action: .capture(.keysToggled))
            ]
        case .search:
            return [
                KeyBinding("search_open", [.enter], hint: "open", help: "Open the highlighted result in History", action: .rowActivated),
                KeyBinding("search_previous", [.up], hint: "results", help: "Previous result", action: .listMoved(.up)),
                KeyBinding("search_next", [.down], help: "Next result", action: .listMoved(.down)),
                KeyBinding("search_page_up", [.pageUp], help: "Results page up", action: .listMoved(.pageUp)),
                KeyBinding("search_page_down", [.pageDown], help: "Results page down", action: .listMoved(.pageDown)),
                KeyBinding("search_close", [.escape], hint: "close", help: "Close search: back where you were", action: .escapePressed),
                KeyBinding("search_help", [.function(1)], help: "Show every key", action: .helpRequested),
                KeyBinding("search_typing", [.anyCharacter], help: "Type the search; it matches as you type", command: .edit(.searchQuery)),
                KeyBinding(
                    "search_editing", [.left, .right, .home, .end, .backspace, .delete, .control("u")],
                    help: "Edit the search (Ctrl-U clears to the start)", edit: .searchQuery
                ),
                KeyBinding("search_paste", [.anyPaste], help: "A paste goes into the search", command: .edit(.searchQuery)),
            ]
        case .help:
            return scrollMoves(pageDown: [.character(" ")]) + [
                KeyBinding("help_close", [.escape, .character("?"), .function(1), .character("q")], hint: "close", help: "Close this help", action: .escapePressed)
            ]
        case .alert:
            return [KeyBinding("alert_ok", [.enter, .escape, .character(" ")], hint: "OK", help: "Dismiss the alert", action: .alertDismissed)]
        case .confirm:
            let letters: [KeyBinding]
            if let alert = state?.presentation.alert, alert.isConfirmation {
                letters = alert.buttons.enumerated().compactMap { index, button in
                    button.key.map { KeyBinding("question_letter", [.character($0)], help: button.title, action: .alertButtonPressed(index), rebindable: false) }
                }
            } else {
                letters = Alert.questionButtons.map { key, index, titles in
                    KeyBinding("question_letter", [.character(key)], help: titles.joined(separator: " / "), action: .alertButtonPressed(index), rebindable: false)
                }
            }
            let defaultButton = state?.presentation.alert?.defaultButton ?? 0
            return [
                KeyBinding(
                    "question_default", [.enter], hint: "default", help: "Press the highlighted button (never the one that deletes or discards)",
                    action: .alertButtonPressed(defaultButton))
            ] + letters + [
                KeyBinding("question_cancel", [.escape], hint: "cancel", help: "Cancel: close the question, change nothing", action: .alertDismissed)
            ]
        case .capturePhotoView:
            return [
                KeyBinding("capture_view_photo", [.function(3), .control("p")], hint: "view", help: "Show the highlighted staged photo full screen", action: .photoViewRequested)
            ]
        case .photoViewer:
            return [
                KeyBinding("previous_photo", [.left, .character("h")], hint: "photos", help: "Previous photo", action: .viewerPhotoStepped(by: -1)),
                KeyBinding("next_photo", [.right, .character("l")], help: "Next photo", action: .viewerPhotoStepped(by: 1)),
                KeyBinding("viewer_back", [.escape, .backspace, .enter], hint: "back", help: "Back to where the photo was opened", action: .escapePressed),
            ]
        }
    }

    // MARK: - Lookup

    /// The contexts in force, most specific first; `.global` is always last.
    public static func contexts(for state: AppState) -> [KeyContext] {
        // Below the minimum size only the notice shows: keys must not act on a screen unseen.
        let focus = state.focus
        if focus == .tooSmall { return [.tooSmall, .global] }
        return contexts(of: focus) + photoContexts(for: state) + [.global]
    }

    /// F3 on capture's photos step and review, where it shows a staged photo: only with
    /// previews on and a photo staged, nothing over the capture and no copy running.
    private static func photoContexts(for state: AppState) -> [KeyContext] {
        guard case let .fullScreenCapture(capture) = state.presentation, state.previewStyle != nil,
            capture.phase == .photos || capture.phase == .review, capture.collectsPhotos,
            !capture.photos.isEmpty, capture.copy == nil, !capture.isConfirmingClose
        else { return [] }
        return [.capturePhotoView]
    }

    /// The contexts of what has focus, most specific first: a tab's own, then the tab bar's.
    private static func contexts(of focus: Focus) -> [KeyContext] {
        switch focus {
        case .tooSmall: [.tooSmall]
        case .alert: [.alert]
        case .question: [.confirm]
        case .viewer: [.photoViewer]
        case .help: [.help]
        case .search: [.search]
        case .capture(.keys): [.captureKeys]
        case .capture(.confirmClose): [.captureConfirmClose]
        case .capture(.picker): [.capturePicker]
        case .capture(.barcode): [.captureBarcode]
        case .capture(.photos): [.capturePhotos]
        case .capture(.note): [.captureNote]
        case .capture(.review): [.captureReview]
        case .inbox: [.inbox, .tabs]
        case .history: [.history, .tabs]
        case .historyDetail: [.historyDetail, .tabs]
        case .settings: [.settings, .tabs]
        }
    }

    /// The action a key sends in this state, or nil when the key means nothing here: the first
    /// binding that takes it, most specific context first.
    public static func action(for key: Key, in state: AppState) -> AppAction? {
        InForce(state).action(for: key)
    }

    /// The bindings in force in one state, most specific context first, built once for what
    /// asks about many keys at a time: a hint line checks each hinted key against every
    /// binding before it, which rebuilt the tables per key (a sixth of a key's CPU).
    struct InForce {
        /// The contexts of the state and their bindings, in the order `action(for:in:)` tries them.
        let table: [(context: KeyContext, bindings: [KeyBinding])]

        init(_ state: AppState) {
            table = KeyMap.contexts(for: state).map { ($0, KeyMap.bindings(for: $0, in: state)) }
        }

        /// What `KeyMap.action(for:in:)` answers for `key` in the state.
        func action(for key: Key) -> AppAction? {
            for (_, bindings) in table {
                for binding in bindings where binding.matches(key) { return binding.action(for: key) }
            }
            return nil
        }

        /// The patterns of `binding` that reach it: its keys no earlier binding takes.
        func patterns(of binding: KeyBinding) -> [KeyPattern] {
            binding.patterns.filter { pattern in
                guard case let .key(key) = pattern else { return true }
                return action(for: key) == binding.action(for: key)
            }
        }
    }

    // MARK: - Hints and help

    /// The hint line's entries for this state: (keys, word). A hint names only keys that do
    /// what it says here (a key a more specific binding takes is not its), and a binding left
    /// with none is not hinted.
    public static func hints(for state: AppState, unicode: Bool) -> [(keys: String, hint: String)] {
        let inForce = InForce(state)
        return inForce.table.flatMap { _, bindings in
            bindings.compactMap { binding in
                binding.hint.flatMap { hint in hintLabel(binding, in: inForce, unicode: unicode).map { ($0, hint) } }
            }
        }
    }

    private static func hintLabel(_ binding: KeyBinding, in inForce: InForce, unicode: Bool) -> String? {
        guard let first = inForce.patterns(of: binding).first else { return nil }
        // Both directions in one label only while both arrows do what the pair does.
        func both(_ keys: (Key, Key), _ actions: (AppAction, AppAction)) -> Bool {
            inForce.action(for: keys.0) == actions.0 && inForce.action(for: keys.1) == actions.1
        }
        let sideways = unicode ? "←→" : "<>"
        let upDown = unicode ? "↑↓" : "Up/Dn"
        switch binding.action {
        case .nextTabRequested? where both((.right, .left), (.nextTabRequested, .previousTabRequested)):
            return sideways
        case .nextTabRequested? where inForce.action(for: .tab) == .nextTabRequested:
            // Where the arrows do something else (Settings), Tab, the key everyone knows.
            return Key.tab.label(unicode: unicode)
        case .viewerPhotoStepped? where both((.left, .right), (.viewerPhotoStepped(by: -1), .viewerPhotoStepped(by: 1))):
            return sideways
        case .settings(.highlightedValueStepped)?
        where both((.left, .right), (.settings(.highlightedValueStepped(forward: false)), .settings(.highlightedValueStepped(forward: true)))):
            return sideways
        case .listMoved(.up)? where both((.up, .down), (.listMoved(.up), .listMoved(.down))):
            return upDown
        case .capture(.pickerCursorMoved)? where both((.up, .down), (.capture(.pickerCursorMoved(by: -1)), .capture(.pickerCursorMoved(by: 1)))):
            return upDown
        default:
            return first.label(unicode: unicode)
        }
    }

    /// The contexts of the capture screen under its keys overlay (what `?`/F1 lists there).
    public static func captureContexts(for state: AppState) -> [KeyContext] {
        guard var capture = state.presentation.capture else { return [] }
        capture.hideKeys()
        var underneath = state
        underneath.presentation = .fullScreenCapture(capture)
        return contexts(of: underneath.focusedScreen)
    }

    /// The bindings of these contexts, for a screen's own list of keys: each context's title,
    /// then every binding of it in force in `state`.
    public static func helpLines(for contexts: [KeyContext], in state: AppState, unicode: Bool) -> [HelpLine] {
        contexts.flatMap { context -> [HelpLine] in
            [.section(context.title)] + bindings(for: context, in: state).map { .binding(keys: $0.label(unicode: unicode), help: $0.help) }
        }
    }

    /// Every binding, grouped by context, for the help sheet over `state`: the contexts of the
    /// screen under the sheet list the keys that act there now (an empty Inbox offers no Enter),
    /// the others every key they have.
    public static func helpLines(in state: AppState, unicode: Bool) -> [HelpLine] {
        var underneath = state
        underneath.presentation = .none
        let here = contexts(of: underneath.focusedScreen)
        let inForceUnderneath = InForce(underneath)
        return KeyContext.allCases.flatMap { context -> [HelpLine] in
            let acting = bindings(for: context, in: here.contains(context) ? state : nil, overrides: state.keyOverrides)
            // Under the sheet, a key a more specific binding takes there is not listed twice.
            let lines = acting.compactMap { binding -> HelpLine? in
                let patterns = here.contains(context) ? inForceUnderneath.patterns(of: binding) : binding.patterns
                guard !patterns.isEmpty else { return nil }
                return .binding(keys: patterns.map { $0.label(unicode: unicode) }.joined(separator: "/"), help: binding.help)
            }
            guard !lines.isEmpty else { return [] }
            return [.section(context.title)] + lines
        }
    }
}

// MARK: - Rebinding (config.toml's [keys])

/// Keys config.toml puts in place of bindings' defaults, by action name. An empty list unbinds
/// the action. Checked by the Configuration module before it gets here: only rebindable names.
public struct KeyOverrides: Equatable, Sendable {
    public var keys: [String: [Key]]

    public init(_ keys: [String: [Key]] = [:]) { self.keys = keys }

    public static let none = KeyOverrides()

    /// `bindings` with each overridden one answering to its new keys; an unbound one left out.
    public func apply(to bindings: [KeyBinding]) -> [KeyBinding] {
        guard !keys.isEmpty else { return bindings }
        return bindings.compactMap { binding in
            guard binding.isRebindable, let replacement = keys[binding.name] else { return binding }
            return replacement.isEmpty ? nil : binding.rebound(to: replacement)
        }
    }
}

extension KeyMap {
    /// Every action name, in the order docs/keys.md first lists them, once each.
    public static var actionNames: [String] {
        var seen = Set<String>()
        return allDefaultBindings.map(\.binding.name).filter { seen.insert($0).inserted }
    }

    /// Every binding of the table with the context it is in (defaults, as docs list them).
    public static var allDefaultBindings: [(context: KeyContext, binding: KeyBinding)] {
        KeyContext.allCases.flatMap { context in defaultBindings(for: context).map { (context, $0) } }
    }

    /// An action's default keys (the same in every context it appears in), or nil for a name
    /// the table does not have.
    public static func defaultKeys(of name: String) -> [Key]? {
        allDefaultBindings.first { $0.binding.name == name }.map(\.binding.keys)
    }

    /// Keys a binding takes from a broader one on its own screen, on purpose: Settings' ← and →
    /// step a value where elsewhere they switch tabs. Sharing a key with the one it takes over
    /// is no clash (the more specific context wins, `action(for:in:)`).
    public static let takesOver: [String: String] = ["setting_previous": "previous_tab", "setting_next": "next_tab"]

    /// Whether `first` and `second` may answer to the same key on one screen: one takes it over
    /// from the other (`takesOver`).
    public static func mayShareKeys(_ first: String, _ second: String) -> Bool {
        takesOver[first] == second || takesOver[second] == first
    }

    /// Whether config.toml may rebind `name`.
    public static func isRebindable(_ name: String) -> Bool {
        allDefaultBindings.contains { $0.binding.name == name && $0.binding.isRebindable }
    }

    /// Actions that must keep a key: without them a screen could not be left or the app quit.
    public static let essentialActions: Set<String> = [
        "quit", "interrupt", "help_close", "capture_keys_close", "capture_close", "alert_ok", "question_cancel",
        "search_close", "viewer_back", "back", "keep_editing",
    ]

    /// The sets of contexts in force together (`contexts(for:)` of some state): two actions in
    /// one of them must not share a key.
    public static let contextGroups: [[KeyContext]] = [
        [.tooSmall, .global], [.alert, .global], [.confirm, .global], [.photoViewer, .global], [.help, .global],
        [.search, .global], [.captureKeys, .global], [.captureConfirmClose, .global], [.capturePicker, .global],
        [.captureBarcode, .global], [.capturePhotos, .capturePhotoView, .global], [.captureNote, .global],
        [.captureReview, .capturePhotoView, .global], [.inbox, .tabs, .global], [.history, .tabs, .global],
        [.historyDetail, .tabs, .global], [.settings, .tabs, .global],
    ]

    /// Whether `context` has a text field, where a printable key is typed rather than bound.
    public static func typesText(_ context: KeyContext) -> Bool {
        defaultBindings(for: context).contains { $0.patterns.contains(.anyCharacter) }
    }
}
