import CaptureMode
import Foundation

/// Everything that can happen to the tab shell, named after what happened.
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

    // MARK: - Within a tab
    case listMoved(ListMove)
    /// Enter on the highlighted row: capture for a request, open a record, change a setting.
    case rowActivated
    /// A click on a list row: the first click highlights it, a click on the highlighted row opens it.
    case rowClicked(Int)
    /// Space on an Inbox request: choose it as the request Create captures for (toggle).
    case requestChoiceToggled
    /// `b` in the Inbox: group the requests by who asked, or not.
    case inboxGroupingToggled
    /// A setting changed from its row (Enter/Space forward, or backward).
    case settingCycled(SettingsRow, forward: Bool)
    case backRequested
    /// `b` in the History list: All -> By request -> By kind -> All.
    case browseModeCycled
    /// `d`/Del: delete the highlighted History record, or the one whose detail shows (asks first).
    case deleteRequested
    /// `D`, or Settings' Clear History row: delete every History record (asks first).
    case clearAllRequested

    // MARK: - Presentations
    case escapePressed
    case helpRequested
    /// Esc on an alert: close it and do nothing (Cancel).
    case alertDismissed
    /// A button of the alert showing, by its index: by click, its letter, or Enter for the default.
    case alertButtonPressed(Int)
    /// `/`: open the search sheet over the current tab.
    case searchRequested
    /// A key edited the search query.
    case searchEdited(TextEdit)
    case capture(CaptureAction)
    /// Enter on a photo of a record's detail, or F3 on a staged photo: show it full screen.
    case photoViewRequested
    /// A click on a photo (its thumbnail or its line) in capture or a record's detail, by its
    /// index: highlight it and show it full screen.
    case photoClicked(Int)
    /// ← or → in the viewer: the previous (-1) or next (+1) photo.
    case viewerPhotoStepped(by: Int)

    // MARK: - Results of effects
    /// The terminal answered the graphics queries (asked at start, not waited for): how photos can be drawn now.
    case previewTerminalFound(PreviewTerminal)
    case inboxLoaded(InboxSnapshot)
    case historyLoaded(HistoryPage)
    /// Another session or a shell command committed to the database: what is on screen is read again.
    case databaseChangedElsewhere
    /// The database server went away (the sentence saying so) or, with nil, is back: then
    /// everything shown is read again.
    case databaseReachability(problem: String?)
    case captureCommitted(recordID: Int64, submission: CaptureSubmission)
    case captureCommitFailed(String)
    /// The on-commit command failed for a record (it is saved all the same): one notice.
    case commitHookFailed(String)
    /// The server this session runs under (`tabshell serve`) will close it soon: no key for a while.
    case idleSessionClosingSoon
    case storageFailed(String)
    /// The answer to `.loadRecordDetail`; nil when the record no longer exists.
    case recordDetailLoaded(id: Int64, detail: RecordDetail?)
    case recordDeleted(Int64)
    case allRecordsDeleted(count: Int)
    /// The answer to `.search`: `rows` match `query`.
    case searchResultsLoaded(query: String, rows: [HistoryRow])
    /// The Inbox highlight's timer fired.
    case highlightEnded(token: Int)
    /// Typing paused: keep the code being typed in the draft.
    case draftSaveDue
    /// A success message's time is up (the token says which message).
    case statusExpired(token: Int)
    /// Start-up recovery's findings: drafts to offer and a sentence on what was swept.
    case recoveryFinished(drafts: [RecoveredDraft], summary: String)
    /// Storage reopened the draft's staging folder for this session.
    case draftResumed(String)
    /// Storage deleted the draft, or could not reopen it.
    case draftDropped(String)
    /// The person came back within the resume window (`tabshell serve`): their navigation as it
    /// was, the photos still in the capture's staging folder, and a sentence saying so.
    case sessionRestored(SessionSnapshot, photos: [StagedPhoto], message: String?)
    /// The answer to `.loadPreview(request, ticket)`.
    case previewLoaded(PreviewRequest, ticket: Int, PreviewOutcome)
}
