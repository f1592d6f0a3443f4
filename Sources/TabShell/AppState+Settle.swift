import CaptureMode
import Domain
import Foundation

/// What follows any action, and the capture's draft kept on disk as it changes.
extension AppState {
    /// What follows any action: a highlight waiting for the Inbox starts once it shows, and the
    /// capture on screen is kept as a draft whenever what it collected changes.
    mutating func settle() -> [AppEffect] {
        var effects: [AppEffect] = []
        if selectedTab == .inbox, presentation.capture == nil {
            effects += toInbox(.shown)
        }
        guard presentation.capture != nil else {
            savedDraft = nil
            return effects
        }
        // Every change, typing included, is handed to the draft at once: a process killed a
        // moment after a key still leaves it on disk. The runtime coalesces the writes (a
        // scanner's burst is a few of them, not one per character) and keeps them off the loop.
        guard let draft = unsavedDraft else { return effects }
        savedDraft = draft
        effects.append(.saveDraft(draft))
        return effects
    }

    /// The capture's draft when disk holds less than the screen shows, else nil. Never once
    /// Done is under way: the commit spends the staging folder, and a draft written after it
    /// would offer the saved capture back (a duplicate on Resume). Never while a photo is
    /// copied in: the copy has the folder, and the draft written when it started names the
    /// photo's path; its arrival brings the next save.
    public var unsavedDraft: CaptureDraft? {
        guard let capture = presentation.capture, !capture.isCommitting, capture.copy == nil, let draft = capture.draft,
            draft.hasContent, draft != savedDraft
        else { return nil }
        return draft
    }
}
