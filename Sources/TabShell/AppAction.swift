import CaptureMode
import Domain
import Foundation

/// Everything that can happen to the tab shell, named after what happened. The shell's own
/// actions (lifecycle, the tab bar, input to whatever has focus, presentations, results the
/// shell handles itself) are cases here; a feature with its own state receives its actions
/// composed in one case each (`.inbox(InboxAction)`, `.history(HistoryAction)`, …), which the
/// router hands to that feature's reducer.
public enum AppAction: Equatable, Sendable {
    // MARK: - Lifecycle and terminal
    case started
    case resized(ScreenSize)
    case quitRequested
    /// Ctrl-C: quit, except in a capture holding something, which asks first (as Esc does);
    /// Ctrl-C again while that question shows quits.
    case interruptRequested
    /// Ctrl-L: the screen may be garbled; paint every cell again.
    case redrawRequested

    // MARK: - Tab bar
    /// A tab was chosen by its key or a click; choosing the action tab opens capture.
    case tabChosen(Tab)
    case nextTabRequested
    case previousTabRequested

    // MARK: - Input, to whatever has focus (`AppState.focus`)
    case listMoved(ListMove)
    /// Enter on the highlighted row: capture for a request, open a record, change a setting.
    case rowActivated
    /// A click on a list row: the first click highlights it, a click on the highlighted row opens it.
    case rowClicked(Int)
    /// One step of the mouse wheel at a cell: the model decides what is under the pointer
    /// (`AppState.turnWheel`).
    case wheelTurned(WheelTurn)
    case escapePressed

    // MARK: - Presentations
    case helpRequested
    /// Esc on an alert: close it and do nothing (Cancel).
    case alertDismissed
    /// A button of the alert showing, by its index: by click, its letter, or Enter for the default.
    case alertButtonPressed(Int)
    /// `/`: open the search sheet over the current tab.
    case searchRequested
    /// Enter on a photo of a record's detail, or F3 on a staged photo: show it full screen.
    case photoViewRequested
    /// A click on a photo (its thumbnail or its line) in capture or a record's detail, by its
    /// index: highlight it and show it full screen.
    case photoClicked(Int)
    /// ← or → in the viewer: the previous (-1) or next (+1) photo.
    case viewerPhotoStepped(by: Int)

    // MARK: - Features, each with its own state and reducer (Sources/TabShell/Features)
    /// The Inbox tab's keys (Space chooses a request, `b` groups) and its answers; its keys act
    /// only while it shows.
    case inbox(InboxAction)
    /// History's keys (Bksp, `b`, `d`, `D`) and its answers; its keys act only while it shows
    /// (`D` on any tab with nothing over it).
    case history(HistoryAction)
    /// A setting's row stepped (a click or its keys).
    case settings(SettingsAction)
    /// The search sheet's query edited, and its answers.
    case search(SearchAction)
    /// Start-up recovery's drafts: storage's answers to resuming or dropping one.
    case drafts(DraftsAction)
    /// Capture mode, full screen over the tabs.
    case capture(CaptureAction)

    // MARK: - Results of effects the shell handles itself
    /// The terminal answered the graphics queries (asked at start, not waited for): how photos can be drawn now.
    case previewTerminalFound(PreviewTerminal)
    /// Another session or a shell command committed to the database: what is on screen is read again.
    case databaseChangedElsewhere
    /// The database server went away (the sentence saying so) or, with nil, is back: then
    /// everything shown is read again.
    case databaseReachability(problem: String?)
    /// The session's store opened (off the loop, after the first frame when it was slow): its
    /// settings take over from the defaults the shell started with.
    case storeOpened(Settings)
    case captureCommitted(recordID: Int64, submission: CaptureSubmission)
    /// The on-commit command failed for a record (it is saved all the same): one notice.
    case commitHookFailed(String)
    /// The server this session runs under (`tabshell serve`) will close it soon: no key for a while.
    case idleSessionClosingSoon
    /// A sentence from outside the screen's flow for the status line ("Welcome back: …" when a
    /// served session resumes without a capture to restore).
    case messageShown(String)
    /// Presenting: the heading's "watch 4821 · 3 watching"; nil when not presenting.
    case presentingChanged(String?)
    /// Inside tmux, what "Copied …" adds when tmux would drop the copy, found after the first
    /// frame so that asking tmux never holds it.
    case clipboardNoteFound(String)
    case storageFailed(String)
    /// A success message's time is up (the token says which message).
    case statusExpired(token: Int)
    /// Start-up recovery's findings: drafts to offer and a sentence on what was swept.
    case recoveryFinished(drafts: [RecoveredDraft], summary: String)
    /// The person came back within the resume window (`tabshell serve`): their navigation as it
    /// was, the photos still in the capture's staging folder, and a sentence saying so.
    case sessionRestored(SessionSnapshot, photos: [StagedPhoto], message: String?)
    /// The answer to `.loadPreview(request, ticket)`.
    case previewLoaded(PreviewRequest, ticket: Int, PreviewOutcome)
}
