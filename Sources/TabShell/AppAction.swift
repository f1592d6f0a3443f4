import CaptureMode
import Foundation

/// Everything that can happen to the tab shell, named after what happened.
public enum AppAction: Equatable, Sendable {
    // MARK: - Lifecycle and terminal
    case started
    case resized(ScreenSize)
    case quitRequested

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
    /// A setting changed from its row (Enter/Space forward, or backward).
    case settingCycled(SettingsRow, forward: Bool)
    case backRequested

    // MARK: - Presentations
    case escapePressed
    case helpRequested
    case alertDismissed
    case capture(CaptureAction)

    // MARK: - Results of effects
    case inboxLoaded(InboxSnapshot)
    case historyLoaded(HistoryPage)
    case captureCommitted(recordID: Int64, submission: CaptureSubmission)
    case captureCommitFailed(String)
    case storageFailed(String)
}

/// Work the shell asks the front end to do; results come back as actions.
public enum AppEffect: Equatable, Sendable {
    case loadInbox
    case loadHistory(HistoryPageRequest)
    case commitCapture(CaptureSubmission)
    case saveSettings(Settings)
    case scheduleAutoAdvance(milliseconds: Int, token: Int)
    /// Copy a photo into this capture's staging directory (created on first use); report
    /// progress and the result as capture actions.
    case stagePhoto(path: String)
    case unstagePhoto(StagedPhoto)
    /// Complete a typed path from its directory's listing; answer with `.pathCompleted`.
    case completePath(String)
    /// Capture closed without Done: cancel any copy and delete the staging directory.
    case discardStaging
    case quit
}
