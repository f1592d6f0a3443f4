import Foundation

/// What a capture in progress has collected so far, kept in its staging folder as `draft.json`
/// so that a capture cut short by a crash, a kill or a dropped link can be offered back.
public struct CaptureDraft: Codable, Equatable, Sendable {
    public var kind: CaptureKind
    /// The raw value of the capture phase to resume in (a `CapturePhase` raw value).
    public var phase: String
    public var barcode: Barcode?
    public var note: String?
    /// The code typed into the barcode field but not yet accepted.
    public var typedCode: String?
    /// The photo path typed but not yet added, or the one being copied in (absent in drafts
    /// written before tabshell kept it).
    public var typedPath: String? = nil
    /// The id of the request the capture answers (kept on its own for drafts written before
    /// `request` was).
    public var requestID: Int64?
    /// The request the capture answers, whole, so a draft can answer it even when the request
    /// is not among those loaded at start.
    public var request: CaptureRequestLink?
    /// The staged photos, in the order they were added.
    public var photos: [StagedPhoto]
    /// A batch's lines (absent in drafts written before batches existed).
    public var lines: [BatchLine]?
    public var updatedAt: Date
    /// Who the capture belongs to (`--as`, the serve session's person); a draft with an owner is
    /// offered back only to them. Nil in drafts written before tabshell kept it.
    public var owner: String? = nil

    public init(
        kind: CaptureKind, phase: String, barcode: Barcode? = nil, note: String? = nil, typedCode: String? = nil,
        requestID: Int64? = nil, request: CaptureRequestLink? = nil, photos: [StagedPhoto] = [], lines: [BatchLine]? = nil,
        updatedAt: Date
    ) {
        self.lines = lines
        self.kind = kind
        self.phase = phase
        self.barcode = barcode
        self.note = note
        self.typedCode = typedCode
        self.requestID = request?.id ?? requestID
        self.request = request
        self.photos = photos
        self.updatedAt = updatedAt
    }

    /// True when there is something worth offering back: a code (accepted or typed), some note
    /// text, a photo or a typed photo path.
    public var hasContent: Bool {
        barcode != nil
            || !(typedCode ?? "").trimmingCharacters(in: .whitespaces).isEmpty
            || !(typedPath ?? "").trimmingCharacters(in: .whitespaces).isEmpty
            || !(note ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            || !photos.isEmpty
            || !(lines ?? []).isEmpty
    }
}
