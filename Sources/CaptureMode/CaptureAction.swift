import Domain
import Foundation

/// Things that happen in capture mode, named after what the user (or a timer) did.
public enum CaptureAction: Equatable, Sendable {
    case kindChosen(CaptureKind)
    case pickerCursorMoved(by: Int)
    case pickerConfirmed
    /// A click on the picker's row: selects it, or chooses it when it is selected already.
    case pickerRowClicked(Int)
    /// One step of the mouse wheel over review's fields or a batch's lines (-1 up, +1 down).
    case bodyScrolled(by: Int)
    /// Typed characters (one key, or a burst from a keyboard-wedge scanner).
    case textTyped(String)
    /// A bracketed paste: a scan arriving in one piece.
    case textPasted(String)
    case enterPressed
    case backspacePressed
    case deletePressed
    /// Ctrl-U: delete from the start of the line to the cursor.
    case deleteToLineStartPressed
    case cursorMoved(TextBuffer.Motion)
    case autoAdvanceElapsed(token: Int)
    /// Product: go on to photos without a barcode.
    case skipTapped
    /// `?` (outside a text field) or F1: show or hide this screen's keys.
    case keysToggled
    /// The front end timed the keystrokes of the code about to be entered.
    case codeSourceMeasured(CodeSource)
    /// Batch: remove the last scan (an explicit key; Backspace only ever edits the field).
    case scanRemovalRequested
    /// Batch: put the scan removed last back at its place.
    case scanRestoreRequested
    /// Barcodes were found on a staged photo (as a scanner would send them).
    case photoCodesRead(storedName: String, codes: [String])
    /// The catalog's answer for an accepted code (nil: not in the catalog).
    case productLookedUp(Barcode, Product?)
    /// Review: back to photos to add or replace some.
    case retakeTapped
    /// Tab in the photo path field.
    case completionRequested
    /// The front end's answer to `.completePath`: the completed text, or the candidates when ambiguous.
    case pathCompleted(text: String?, candidates: [String])
    case photoCopyProgressed(copiedBytes: Int64, totalBytes: Int64)
    case photoStaged(StagedPhoto)
    case photoStagingFailed(String)
    /// Remove the highlighted staged photo (an explicit key; Del only ever edits the field).
    case photoRemovalRequested
    case doneTapped
    case closeTapped
    /// The user confirmed that Close may delete the staged photos.
    case closeConfirmed
    /// The user kept the capture after Close asked.
    case closeCancelled
    /// The shell's report that Done's commit failed; capture stays open with the message.
    case commitFailed(String)
    /// Done's save `token` has waited `seconds` for the store (a timer's tick, each second).
    case saveWaited(token: Int, seconds: Int)
}

extension CaptureAction {
    /// A capture action sent by a key or a click (not a timer's, a copy's or storage's answer).
    public var isUserInput: Bool {
        switch self {
        case .kindChosen, .pickerCursorMoved, .pickerConfirmed, .pickerRowClicked, .bodyScrolled, .textTyped, .textPasted, .enterPressed,
            .backspacePressed, .deletePressed, .deleteToLineStartPressed, .cursorMoved, .skipTapped, .keysToggled,
            .scanRemovalRequested, .scanRestoreRequested, .retakeTapped, .completionRequested, .photoRemovalRequested, .doneTapped, .closeTapped,
            .closeConfirmed, .closeCancelled:
            return true
        case .autoAdvanceElapsed, .codeSourceMeasured, .photoCodesRead, .productLookedUp, .pathCompleted,
            .photoCopyProgressed, .photoStaged, .photoStagingFailed, .commitFailed, .saveWaited:
            return false
        }
    }

    /// The result of work done in the background (a photo copy, a catalog lookup, codes read on
    /// a photo): it lands whatever shows over the capture (its keys, the Close question), so a
    /// photo copied in while the question shows is not lost when the user keeps editing.
    public var isBackgroundResult: Bool {
        switch self {
        case .photoCopyProgressed, .photoStaged, .photoStagingFailed, .productLookedUp, .photoCodesRead: true
        default: false
        }
    }
}

/// Work the capture reducer asks the outside world to do.
public enum CaptureEffect: Equatable, Sendable {
    case scheduleAutoAdvance(milliseconds: Int, token: Int)
    /// Copy the file the user typed (raw text; resolve it with `PathInput`) into staging.
    case stagePhoto(path: String)
    /// Delete one staged file.
    case unstagePhoto(StagedPhoto)
    /// List the directory of the typed path and answer with `.pathCompleted`.
    case completePath(String)
    case commit(CaptureSubmission)
    /// Count the wait of Done's save `token`: `.saveWaited(token:seconds:)` after `milliseconds`.
    case scheduleSaveTick(milliseconds: Int, token: Int, seconds: Int)
    /// Leave capture mode: cancel any copy and delete the staging directory.
    case dismiss
}
