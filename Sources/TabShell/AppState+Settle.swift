import CaptureMode
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
        guard let draft = unsavedDraft else { return effects }
        if draft.withTyping(of: savedDraft) == savedDraft {
            // Only what is being typed (a code, a photo path) changed: one save a moment after
            // typing pauses, not a durable write per keystroke (a scanner types a code in a few
            // milliseconds).
            if !isDraftSaveScheduled {
                isDraftSaveScheduled = true
                effects.append(.schedule(afterMilliseconds: Self.typedCodeSaveDelay, action: .draftSaveDue))
            }
            return effects
        }
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

    /// How long after the last keystroke a code being typed is kept in the draft.
    static let typedCodeSaveDelay = 1000
    /// The pause after typing a code has passed: save the draft if it still differs from disk.
    mutating func saveDraftAfterTyping() -> [AppEffect] {
        isDraftSaveScheduled = false
        if let draft = unsavedDraft {
            savedDraft = draft
            return [.saveDraft(draft)]
        }
        return []
    }
}
