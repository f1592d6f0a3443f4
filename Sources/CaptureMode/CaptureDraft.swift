import Foundation

/// What a capture in progress has collected so far, kept in its staging folder as `draft.json`
/// so that a capture cut short by a crash, a kill or a dropped link can be offered back.
public struct CaptureDraft: Codable, Equatable, Sendable {
    public var kind: CaptureKind
    /// The raw value of the capture phase to resume in (a `CapturePhase` raw value).
    public var phase: String
    public var barcode: Barcode?
    public var note: String?
    public var requestID: Int64?
    /// The staged photos, in the order they were added.
    public var photos: [StagedPhoto]
    public var updatedAt: Date

    public init(
        kind: CaptureKind, phase: String, barcode: Barcode? = nil, note: String? = nil,
        requestID: Int64? = nil, photos: [StagedPhoto] = [], updatedAt: Date
    ) {
        self.kind = kind
        self.phase = phase
        self.barcode = barcode
        self.note = note
        self.requestID = requestID
        self.photos = photos
        self.updatedAt = updatedAt
    }

    /// True when there is something worth offering back: a code, some note text or a photo.
    public var hasContent: Bool {
        barcode != nil
            || !(note ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            || !photos.isEmpty
    }
}

extension CaptureState {
    /// What this capture has collected, as `draft.json` keeps it; nil before a kind is chosen.
    /// `updatedAt` is left at the epoch: the runner stamps it when it writes.
    public var draft: CaptureDraft? {
        guard let kind else { return nil }
        let text = note.text
        return CaptureDraft(
            kind: kind,
            phase: phase.rawValue,
            barcode: barcode,
            note: text.isEmpty ? nil : text,
            requestID: request?.id,
            photos: photos,
            updatedAt: Date(timeIntervalSince1970: 0)
        )
    }
}
