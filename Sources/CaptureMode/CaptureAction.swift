import Foundation

/// Things that happen in capture mode, named after what the user (or a timer) did.
public enum CaptureAction: Equatable, Sendable {
    case kindChosen(CaptureKind)
    case pickerCursorMoved(by: Int)
    case pickerConfirmed
    /// Typed characters (one key, or a burst from a keyboard-wedge scanner).
    case textTyped(String)
    /// A bracketed paste: a scan arriving in one piece.
    case textPasted(String)
    case enterPressed
    case backspacePressed
    case deletePressed
    case cursorMoved(TextBuffer.Motion)
    case autoAdvanceElapsed(token: Int)
    case doneTapped
    case closeTapped
    /// The shell's report that Done's commit failed; capture stays open with the message.
    case commitFailed(String)
}

/// Work the capture reducer asks the outside world to do.
public enum CaptureEffect: Equatable, Sendable {
    case scheduleAutoAdvance(milliseconds: Int, token: Int)
    case commit(CaptureSubmission)
    case dismiss
}
