import Domain
import Foundation
import Scanning

/// The phases of capture mode, in the order a flow visits them.
public enum CapturePhase: String, Equatable, Sendable, CaseIterable {
    case picker
    case barcode
    case photos
    case note
    case review
}

/// Behaviour that comes from Settings, fixed for the life of one capture.
public struct CaptureConfig: Equatable, Sendable {
    /// How long the "scanned" toast stays before the flow moves on; 0 advances at once.
    public var autoAdvanceMilliseconds: Int
    public var allowsFreeText: Bool
    /// How many photos one capture may hold.
    public var maximumPhotos: Int
    /// The largest file accepted as a photo, in bytes.
    public var maximumPhotoBytes: Int64
    /// Photos come only from the person's uploads, by name (`tabshell serve`), not from any path.
    public var photosFromUploads = false
    /// The character a scanner is set to send for FNC1 instead of 0x1D, if any.
    public var separatorStandIn: Character?
    /// The scanner/computer keyboard-layout pair to undo (Settings › Scanner layout), if any.
    public var scannerLayout: LayoutTranslation?
    /// The keys in force for what capture's own sentences name ("Ctrl-X removes the last scan"):
    /// the shell fills them from its key table, so a rebound key is named as it is.
    public var keyNames = CaptureKeyNames()

    /// How codes are read: free text or not, the stand-in separator, the layout to undo.
    public var scanOptions: ScanOptions {
        ScanOptions(
            separatorStandIn: separatorStandIn, allowFreeText: allowsFreeText, maximumLength: BarcodeValidator.maximumLength,
            layout: scannerLayout, detectsLayout: scannerLayout == nil
        )
    }

    public init(autoAdvanceMilliseconds: Int = 800, allowsFreeText: Bool = false, maximumPhotos: Int = 3, maximumPhotoBytes: Int64 = 50 * 1024 * 1024) {
        self.autoAdvanceMilliseconds = autoAdvanceMilliseconds
        self.allowsFreeText = allowsFreeText
        self.maximumPhotos = max(1, maximumPhotos)
        self.maximumPhotoBytes = maximumPhotoBytes
    }
}

/// How the keys capture's sentences name are written, from the key table in force (nil: the
/// action has no key, and the sentence does not offer it).
public struct CaptureKeyNames: Equatable, Sendable {
    /// Takes the last scan out of a batch.
    public var removeScan: String?
    /// Puts the scan removed last back.
    public var restoreScan: String?
    /// Removes the highlighted staged photo.
    public var removePhoto: String?
    /// Shows the highlighted staged photo full screen.
    public var viewPhoto: String?

    public init(removeScan: String? = "Ctrl-X", restoreScan: String? = "Ctrl-R", removePhoto: String? = "Ctrl-X", viewPhoto: String? = "F3") {
        self.removeScan = removeScan
        self.restoreScan = restoreScan
        self.removePhoto = removePhoto
        self.viewPhoto = viewPhoto
    }
}

/// What the catalog said about a code (nil product: not in the catalog).
public struct ProductLookup: Equatable, Sendable {
    public var barcode: Barcode
    public var product: Product?

    public init(barcode: Barcode, product: Product?) {
        self.barcode = barcode
        self.product = product
    }
}

/// What shows over capture's phase; at most one thing does, and while it shows the phase's own
/// keys wait (storage's and the copy's answers still land). Done's save is not one of them:
/// the keys can show while it waits (`CaptureState.saving`).
public enum CaptureOverlay: Equatable, Sendable {
    case none
    /// `?`/F1: the keys of the phase, from this line (the list scrolls when the screen is short).
    case keys(scrollOffset: Int)
    /// Close was asked for while the capture holds something: discard it (y) or keep editing.
    case confirmingClose
}

/// The state of one capture-mode session, from the kind picker to Done or Close.
public struct CaptureState: Equatable, Sendable {
    public var config: CaptureConfig
    public var request: CaptureRequestLink?
    /// nil while the picker is showing.
    public var kind: CaptureKind?
    public var phase = CapturePhase.picker
    public var pickerCursor = 0
    public var barcodeInput = TextBuffer(limit: BarcodeValidator.maximumLength)
    /// Codes read from staged photos, by the photo's stored name.
    public var photoCodes: [String: [Barcode]] = [:]
    /// A batch's scans so far.
    public var batch = BatchLines()
    /// The scans Ctrl-X removed, the latest last: the undo key puts them back in turn.
    public var removedScans: [RemovedScan] = []
    /// What the last batch scan did ("Added …", "… again: 3"), shown under the field.
    public var batchMessage: String?
    /// How many of a batch's latest lines the wheel scrolled past (0: the latest on top).
    public var batchScrollOffset = 0
    /// How many rows of review's fields the wheel scrolled past; 0 whenever review is left.
    public var reviewScrollOffset = 0
    /// How the code being typed arrives, as the front end measured it (keystroke timing).
    public var codeSource: CodeSource?
    /// The accepted code; once set, barcode input stops (single scan).
    public var barcode: Barcode?
    /// Inline error under the barcode field; the input is kept.
    public var barcodeError: BarcodeError?
    /// When the refused input looks like a scanner typing in another keyboard layout: which,
    /// and the fix.
    public var layoutHint: String?
    /// Shown while waiting to auto-advance after a scan.
    public var scanToast: Barcode?
    /// The catalog's answer for a code (`.productLookedUp`): the product of `barcode` when its
    /// code is the one accepted now.
    public var productLookup: ProductLookup?

    /// The catalog's product for the accepted code, once the catalog has answered.
    public var product: Product? {
        guard let productLookup, productLookup.barcode == barcode else { return nil }
        return productLookup.product
    }
    /// Identifies the pending auto-advance so a stale timer cannot move a later phase.
    public var autoAdvanceToken = 0
    public var note = TextBuffer(multiline: true)
    /// The photo path field (Tab completes; a paste is submitted at once).
    public var photoPath = TextBuffer(limit: 4096)
    /// Photos already copied into staging, in order.
    public var photos: [StagedPhoto] = []
    /// The highlighted staged photo (the removal key, Ctrl-X by default, removes it).
    public var photoCursor = 0
    /// Inline message under the path field: why a file was refused, or completion candidates.
    public var photoMessage: PhotoMessage?
    /// The copy in progress, if any; input waits and Close cancels it.
    public var copy: PhotoCopy?
    /// What shows over the phase, if anything: its list of keys or the question before discarding.
    public var overlay = CaptureOverlay.none
    /// Done's save, from Done until the shell reports its outcome ("Saving…"): keys that would
    /// change the capture are refused with a sentence, the others act.
    public var saving: PendingSave?
    /// Identifies the latest save, so a stale tick cannot count for a later Done.
    public var saveToken = 0
    /// Why Done did not commit, shown until the next edit.
    public var notice: String?

    /// Close was asked for while the capture holds something: waiting for the user to confirm the discard.
    public var isConfirmingClose: Bool { overlay == .confirmingClose }
    /// The keys of the phase on screen are showing over it (`?` or F1).
    public var isShowingKeys: Bool { if case .keys = overlay { true } else { false } }
    /// The first line of that list of keys shown (it scrolls when the screen is short); 0 when it is not showing.
    public var keysScrollOffset: Int { if case let .keys(scrollOffset) = overlay { scrollOffset } else { 0 } }
    /// True from Done until the shell reports the commit's outcome; the capture cannot change meanwhile.
    public var isCommitting: Bool { saving != nil }

    /// Closes the list of keys, if it shows.
    public mutating func hideKeys() {
        if isShowingKeys { overlay = .none }
    }

    public init(config: CaptureConfig = CaptureConfig(), request: CaptureRequestLink? = nil) {
        self.config = config
        self.request = request
        if let request {
            start(request.kind)
        }
    }

    /// A capture restored from a draft left by a crash, a kill or a dropped link: same kind,
    /// phase, code, note, staged photos and what was typed (a code, a photo path). An accepted
    /// code stays accepted (no toast, no timer).
    public init(
        config: CaptureConfig, request: CaptureRequestLink?, kind: CaptureKind, phase: CapturePhase,
        barcode: Barcode?, note: String?, typedCode: String? = nil, typedPath: String? = nil, photos: [StagedPhoto],
        lines: [BatchLine] = []
    ) {
        self.init(config: config, request: request)
        self.kind = kind
        self.phase = phase == .picker ? Self.firstPhase(of: kind) : phase
        self.barcode = barcode
        if let barcode {
            barcodeInput = TextBuffer(barcode.value, limit: BarcodeValidator.maximumLength)
        } else if let typedCode {
            barcodeInput = TextBuffer(typedCode, limit: BarcodeValidator.maximumLength)
        }
        if let note { self.note = TextBuffer(note, multiline: true) }
        if let typedPath { photoPath = TextBuffer(typedPath, limit: 4096) }
        self.photos = photos
        self.photoCursor = max(0, photos.count - 1)
        self.batch = BatchLines(lines: lines)
        if self.phase == .barcode, barcode != nil, kind != .batch {
            // Killed during the "scanned" toast: the code is accepted, so go on as its timer would.
            self.phase = kind == .product ? .photos : .review
        }
        if self.phase == .review, case .failure = submission {
            // A draft saved mid-way cannot be reviewed yet: resume where input is still needed.
            self.phase = collectsPhotos ? .photos : (kind == .note ? .note : .barcode)
        }
    }

    /// Kinds offered by the picker.
    public var pickerKinds: [CaptureKind] { CaptureKind.available }

    /// True when the focused control is a text field (keys type text instead of acting).
    public var isEditingText: Bool {
        guard overlay == .none else { return false }
        switch phase {
        case .barcode: return barcode == nil || kind == .batch
        case .photos: return copy == nil
        case .note: return true
        case .picker, .review: return false
        }
    }

    /// The steps of this capture's kind, in order, for the breadcrumb (`Barcode › Photos › Review`).
    public var steps: [CapturePhase] {
        switch kind {
        case .barcode?: [.barcode, .review]
        case .photos?: [.photos, .review]
        case .product?: [.barcode, .photos, .review]
        case .note?, .batch?: []
        case nil: []
        }
    }

    /// Whether this capture's kind collects photos.
    public var collectsPhotos: Bool { kind == .photos || kind == .product }

    /// Whether Close must ask first: it would throw away something the user collected or typed.
    public var closeNeedsConfirmation: Bool { !collectedWork.isEmpty }

    /// What Close would throw away, in words ("the code, the note and 2 photos"); empty when
    /// the capture holds nothing yet.
    public var collectedWork: [String] {
        var parts: [String] = []
        if barcode != nil || !barcodeInput.text.trimmingCharacters(in: .whitespaces).isEmpty {
            parts.append(barcode != nil ? "the code" : "the typed code")
        }
        if !note.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parts.append("the note") }
        // A photo still being copied in is work too: Close cancels the copy and loses it.
        if copy != nil {
            parts.append("the photo being added")
        } else if !photoPath.text.trimmingCharacters(in: .whitespaces).isEmpty {
            parts.append("the typed path")
        }
        if !photos.isEmpty { parts.append(photos.count == 1 ? "1 photo" : "\(photos.count) photos") }
        if !batch.isEmpty { parts.append(batch.summary) }
        return parts
    }

    /// What Done would write now, or nil (with the reason) when the capture is incomplete.
    public var submission: Result<CaptureSubmission, CaptureIncomplete> {
        guard let kind else { return .failure(.noKindChosen) }
        if copy != nil { return .failure(.copyInProgress) }
        switch kind {
        case .barcode:
            guard let barcode else { return .failure(.noBarcode) }
            return .success(CaptureSubmission(kind: kind, barcode: barcode, requestID: request?.id, codeSource: codeSource, product: product))
        case .product, .photos:
            guard !photos.isEmpty else { return .failure(.noPhotos) }
            return .success(
                CaptureSubmission(
                    kind: kind, barcode: kind == .product ? barcode : nil, requestID: request?.id, photos: photos,
                    codeSource: kind == .product && barcode != nil ? codeSource : nil, product: kind == .product ? product : nil
                ))
        case .note:
            let text = note.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return .failure(.emptyNote) }
            return .success(CaptureSubmission(kind: kind, note: note.text, requestID: request?.id))
        case .batch:
            guard !batch.isEmpty else { return .failure(.emptyBatch) }
            return .success(CaptureSubmission(kind: kind, requestID: request?.id, lines: batch.lines, codeSource: codeSource))
        }
    }

    mutating func start(_ kind: CaptureKind) {
        self.kind = kind
        phase = Self.firstPhase(of: kind)
    }

    /// The phase a capture of `kind` opens on.
    static func firstPhase(of kind: CaptureKind) -> CapturePhase {
        switch kind {
        case .barcode, .product, .batch: .barcode
        case .note: .note
        case .photos: .photos
        }
    }
}

/// Why Done cannot commit yet; each case has a sentence for the screen.
public enum CaptureIncomplete: Error, Equatable, Sendable {
    case noKindChosen
    case noBarcode
    case emptyNote
    case noPhotos
    case emptyBatch
    case copyInProgress
    /// Done with a photo path typed but not added: it is being added first.
    case typedPhotoFirst
    case unavailable(CaptureKind)

    public var message: String {
        switch self {
        case .noKindChosen: "Choose what to capture first."
        case .noBarcode: "Scan or type a valid code before Done."
        case .emptyNote: "Write something before Done."
        case .noPhotos: "Add at least one photo before Done: type or paste its file path (its upload name under tabshell serve), then Enter."
        case .emptyBatch: "Scan at least one code before Done."
        case .copyInProgress: "Wait for the copy to finish, or Close to cancel it."
        case .typedPhotoFirst: "Adding the typed photo first; press Done again once it is in."
        case let .unavailable(kind): "\(kind.title) capture is not available in this version."
        }
    }
}

/// A photo copy in progress (as a watcher is sent it too).
public struct PhotoCopy: Codable, Equatable, Sendable {
    public var name: String
    public var copiedBytes: Int64
    public var totalBytes: Int64

    public init(name: String, copiedBytes: Int64 = 0, totalBytes: Int64 = 0) {
        self.name = name
        self.copiedBytes = copiedBytes
        self.totalBytes = totalBytes
    }

    /// 0...1, or nil while the size is unknown.
    public var fraction: Double? { totalBytes > 0 ? min(1, Double(copiedBytes) / Double(totalBytes)) : nil }
}
