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
        guard let capture = presentation.capture else {
            savedDraft = nil
            return effects
        }
        // While a copy runs the staging folder is busy; the photo's arrival saves the draft.
        guard capture.copy == nil, let draft = capture.draft, draft.hasContent, draft != savedDraft else { return effects }
        var withoutTyping = draft
        withoutTyping.typedCode = savedDraft?.typedCode
        if withoutTyping == savedDraft {
            // Only the code being typed changed: one save a moment after typing pauses, not a
            // durable write per keystroke (a scanner types a code in a few milliseconds).
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

    /// How long after the last keystroke a code being typed is kept in the draft.
    static let typedCodeSaveDelay = 1000
    /// The pause after typing a code has passed: save the draft if it still differs from disk.
    mutating func saveDraftAfterTyping() -> [AppEffect] {
        isDraftSaveScheduled = false
        if let draft = presentation.capture?.draft, draft.hasContent, draft != savedDraft {
            savedDraft = draft
            return [.saveDraft(draft)]
        }
        return []
    }
}
