import Foundation

/// What takes input in capture: an overlay over the phase (its list of keys, then the question
/// before discarding), else the phase's own screen.
public enum CaptureFocus: Equatable, Sendable {
    /// `?`/F1: the list of keys, over the phase.
    case keys
    /// "Discard what it holds?", over the phase.
    case confirmClose
    case picker
    /// Entering a code (a barcode capture with its code read is at review).
    case barcode
    case photos
    case note
    case review
}

extension CaptureState {
    /// What takes input in this capture; the shell's focus reads it.
    public var focus: CaptureFocus {
        if isShowingKeys { return .keys }
        if isConfirmingClose { return .confirmClose }
        switch phase {
        case .picker: return .picker
        case .barcode: return barcode == nil ? .barcode : .review
        case .photos: return .photos
        case .note: return .note
        case .review: return .review
        }
    }
}
