import CaptureMode
import Domain
import Foundation

// MARK: - State

/// An unfinished capture found at start-up (left by a crash, a kill or a dropped link), offered
/// back with Resume / Discard.
public struct DraftOffer: Equatable, Sendable, Identifiable {
    /// The staging folder's name, which storage resumes or discards by.
    public var id: String
    /// One line for the alert: "A product capture: 4006381333931, 2 photos."
    public var summary: String
    /// The capture as it was, ready to present when resumed.
    public var capture: CaptureState
    /// The draft's staging folder holds photos (the question says they were kept).
    public var hasFiles = false
}

extension DraftOffer {
    /// The offer for a draft storage found: the capture rebuilt as it was, with a one-line
    /// summary. `requests` names the request the draft answers.
    public init(_ found: RecoveredDraft, config: CaptureConfig, requests: [InboxRequest]) {
        let draft = found.draft
        // The draft names its request itself; an older draft only by id, found among the
        // requests loaded, or kept by id alone so Done still answers it.
        let link =
            draft.request
            ?? draft.requestID.map { id in
                requests.first { $0.id == id }.map { CaptureRequestLink(id: $0.id, title: $0.title, kind: $0.kind) }
                    ?? CaptureRequestLink(id: id, title: "Request #\(id)", kind: draft.kind)
            }
        let capture = CaptureState(
            config: config, request: link, kind: draft.kind,
            phase: CapturePhase(rawValue: draft.phase) ?? .picker,
            barcode: draft.barcode, note: draft.note, typedCode: draft.typedCode, typedPath: draft.typedPath,
            photos: draft.photos,
            lines: draft.lines ?? []
        )
        var parts: [String] = []
        if let barcode = draft.barcode { parts.append(barcode.value) } else if let typed = draft.typedCode { parts.append(typed) }
        if let note = draft.note?.split(separator: "\n").first { parts.append("\u{201C}\(note.prefix(40))\u{201D}") }
        if !draft.photos.isEmpty { parts.append(draft.photos.count == 1 ? "1 photo" : "\(draft.photos.count) photos") }
        if let path = draft.typedPath, !path.trimmingCharacters(in: .whitespaces).isEmpty { parts.append("a typed photo path") }
        if let lines = draft.lines, !lines.isEmpty { parts.append(BatchLines(lines: lines).summary) }
        let what = parts.isEmpty ? "" : ": " + parts.joined(separator: ", ")
        let answering = link.map { " for \u{201C}\($0.title.prefix(40))\u{201D}" } ?? ""
        self.init(id: found.id, summary: "A \(draft.kind.title.lowercased()) capture\(answering)\(what).", capture: capture)
        hasFiles = !draft.photos.isEmpty
    }

    /// What the status line says when the question is closed without an answer (Esc): the
    /// draft stays on disk and comes back; nil for any other alert.
    public static func keptMessage(afterCancelling alert: Alert) -> String? {
        let offersDraft = alert.buttons.contains { if case .resumeDraft = $0.action { true } else { false } }
        return offersDraft ? "Kept as a draft; it is offered again at the next start." : nil
    }

    public var alert: Alert {
        Alert(
            title: "Resume the unfinished capture?",
            message: summary + (hasFiles ? " Its photos were kept on disk." : ""),
            buttons: [AlertButton("Resume", key: "r", action: .resumeDraft(id)), AlertButton("Discard", key: "d", action: .discardDraft(id))]
        )
    }
}

/// A draft as start-up recovery found it: its staging folder's name and what it holds.
public struct RecoveredDraft: Equatable, Sendable, Identifiable {
    public var id: String
    public var draft: CaptureDraft

    public init(id: String, draft: CaptureDraft) {
        self.id = id
        self.draft = draft
    }
}

/// The unfinished captures start-up found, offered one at a time.
public struct DraftsState: Equatable, Sendable {
    public var offers: [DraftOffer] = []
}

// MARK: - Actions

/// What happens to the drafts on offer.
public enum DraftsAction: Equatable, Sendable {
    /// Start-up recovery found these drafts (newest first once offered).
    case found([RecoveredDraft], config: CaptureConfig, requests: [InboxRequest])
    /// Nothing else is presented: the next offer may show.
    case offerDue
    /// Storage reopened this draft's staging folder for this session.
    case resumed(String)
    /// Storage deleted the draft, or could not reopen it.
    case dropped(String)
}

// MARK: - Reducer

extension DraftsState {
    /// The drafts reducer. It only asks for its next question on `.offerDue`, which the shell
    /// sends when nothing else is presented.
    public mutating func send(_ action: DraftsAction) -> Outcome {
        switch action {
        case let .found(drafts, config, requests):
            offers =
                drafts
                .sorted { $0.draft.updatedAt > $1.draft.updatedAt }
                .map { DraftOffer($0, config: config, requests: requests) }
            return .none
        case .offerDue:
            return offers.first.map { .request(.present($0.alert)) } ?? .none
        case let .resumed(id):
            guard let offer = offers.first(where: { $0.id == id }) else { return .none }
            // One capture at a time: any other drafts stay on disk for the next start.
            offers.removeAll()
            return .request(.presentCapture(offer.capture))
        case let .dropped(id):
            offers.removeAll { $0.id == id }
            return .none
        }
    }
}
