import CaptureMode
import Foundation

/// An unfinished capture found at start-up (left by a crash, a kill or a dropped link), offered
/// back with Resume / Discard.
public struct DraftOffer: Equatable, Sendable, Identifiable {
    /// The staging folder's name, which storage resumes or discards by.
    public var id: String
    /// One line for the alert: "A product capture from 5 minutes ago: 4006381333931, 2 photos."
    public var summary: String
    /// The capture as it was, ready to present when resumed.
    public var capture: CaptureState

    public init(id: String, summary: String, capture: CaptureState) {
        self.id = id
        self.summary = summary
        self.capture = capture
    }

    var alert: Alert {
        Alert(
            title: "Resume the unfinished capture?",
            message: summary + " Its files were kept on disk.",
            buttons: [AlertButton("Resume", key: "r", action: .resumeDraft(id)), AlertButton("Discard", key: "d", action: .discardDraft(id))]
        )
    }
}
