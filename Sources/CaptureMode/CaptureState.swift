import Foundation

/// The phases of capture mode, in the order a flow visits them.
public enum CapturePhase: String, Equatable, Sendable, CaseIterable {
    case picker
    case barcode
    case note
    case review
}

/// Behaviour that comes from Settings, fixed for the life of one capture.
public struct CaptureConfig: Equatable, Sendable {
    /// How long the "scanned" toast stays before the flow moves on; 0 advances at once.
    public var autoAdvanceMilliseconds: Int
    public var allowsFreeText: Bool

    public init(autoAdvanceMilliseconds: Int = 800, allowsFreeText: Bool = false) {
        self.autoAdvanceMilliseconds = autoAdvanceMilliseconds
        self.allowsFreeText = allowsFreeText
    }
}

/// The Inbox request a capture answers.
public struct CaptureRequestLink: Equatable, Sendable {
    public var id: Int64
    public var title: String
    public var kind: CaptureKind

    public init(id: Int64, title: String, kind: CaptureKind) {
        self.id = id
        self.title = title
        self.kind = kind
    }
}

/// What Done hands to storage: everything the capture collected.
public struct CaptureSubmission: Equatable, Sendable {
    public var kind: CaptureKind
    public var barcode: Barcode?
    public var note: String?
    public var requestID: Int64?
    /// Staged photos in the order they were added; empty for kinds without photos.
    public var photos: [StagedPhoto]

    public init(kind: CaptureKind, barcode: Barcode? = nil, note: String? = nil, requestID: Int64? = nil, photos: [StagedPhoto] = []) {
        self.kind = kind
        self.barcode = barcode
        self.note = note
        self.requestID = requestID
        self.photos = photos
    }
}

/// The state of one capture-mode session, from the kind picker to Done or Close.
public struct CaptureState: Equatable, Sendable {
    public var config: CaptureConfig
    public var request: CaptureRequestLink?
    /// nil while the picker is showing.
    public var kind: CaptureKind?
    public var phase: CapturePhase
    public var pickerCursor: Int
    public var barcodeInput: TextBuffer
    /// The accepted code; once set, barcode input stops (single scan).
    public var barcode: Barcode?
    /// Inline error under the barcode field; the input is kept.
    public var barcodeError: BarcodeError?
    /// Shown while waiting to auto-advance after a scan.
    public var scanToast: Barcode?
    /// Identifies the pending auto-advance so a stale timer cannot move a later phase.
    public var autoAdvanceToken: Int
    public var note: TextBuffer
    /// Why Done did not commit, shown until the next edit.
    public var notice: String?
    /// True from Done until the shell reports the commit's outcome; input is ignored meanwhile.
    public var isCommitting: Bool

    public init(config: CaptureConfig = CaptureConfig(), request: CaptureRequestLink? = nil) {
        self.config = config
        self.request = request
        self.kind = nil
        self.phase = .picker
        self.pickerCursor = 0
        self.barcodeInput = TextBuffer(limit: BarcodeValidator.maximumLength)
        self.barcode = nil
        self.barcodeError = nil
        self.scanToast = nil
        self.autoAdvanceToken = 0
        self.note = TextBuffer(multiline: true)
        self.notice = nil
        self.isCommitting = false
        if let request {
            start(request.kind)
        }
    }

    /// Kinds offered by the picker.
    public var pickerKinds: [CaptureKind] { CaptureKind.available }

    /// True when the focused control is a text field (keys type text instead of acting).
    public var isEditingText: Bool {
        guard !isCommitting else { return false }
        switch phase {
        case .barcode: return barcode == nil
        case .note: return true
        case .picker, .review: return false
        }
    }

    /// What Done would write now, or nil (with the reason) when the capture is incomplete.
    public var submission: Result<CaptureSubmission, CaptureIncomplete> {
        guard let kind else { return .failure(.noKindChosen) }
        switch kind {
        case .barcode, .product:
            guard let barcode else { return .failure(.noBarcode) }
            return .success(CaptureSubmission(kind: kind, barcode: barcode, requestID: request?.id))
        case .note:
            let text = note.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return .failure(.emptyNote) }
            return .success(CaptureSubmission(kind: kind, note: note.text, requestID: request?.id))
        case .photos:
            return .failure(.unavailable(kind))
        }
    }

    mutating func start(_ kind: CaptureKind) {
        self.kind = kind
        switch kind {
        case .barcode, .product: phase = .barcode
        case .note: phase = .note
        case .photos: phase = .picker
        }
    }
}

/// Why Done cannot commit yet; each case has a sentence for the screen.
public enum CaptureIncomplete: Error, Equatable, Sendable {
    case noKindChosen
    case noBarcode
    case emptyNote
    case unavailable(CaptureKind)

    public var message: String {
        switch self {
        case .noKindChosen: "Choose what to capture first."
        case .noBarcode: "Scan or type a valid code before Done."
        case .emptyNote: "Write something before Done."
        case let .unavailable(kind): "\(kind.title) capture is not available in this version."
        }
    }
}
