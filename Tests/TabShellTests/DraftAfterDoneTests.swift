import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

/// Nothing a person captured may vanish, and nothing saved may come back: once Done
/// commits, no draft of that capture is written again (a draft written after the commit was
/// offered back and saved a duplicate); a typed photo path, and a photo still being copied in,
/// are work: in the draft, and asked about before Close or Ctrl-C throws them away.
@Suite("Issue 22: drafts after Done, typed paths, copies under way")
struct DraftAfterDoneTests {
    static let ean8 = "96385074"
    static let photo = StagedPhoto(storedName: "0A.png", originalName: "shelf.png", format: .png, pixelWidth: 4, pixelHeight: 3, byteSize: 20)

    /// A capture of `kind` (from an Inbox request when `fromRequest`) with `code` typed into its
    /// field and not entered; a batch has one scan already.
    static func typedButNotEntered(_ kind: CaptureKind, fromRequest: Bool) -> (AppState, [AppEffect]) {
        var state = AppState.loaded(requests: fromRequest ? [request(7, kind: kind)] : [])
        var effects: [AppEffect] = []
        if fromRequest {
            effects += state.send(.rowActivated)
        } else {
            effects += state.send([.tabChosen(.create), .capture(.kindChosen(kind))])
        }
        if kind == .batch { effects += state.send([.capture(.textPasted(ean8))]) }
        for character in validEAN13.value { effects += state.send(.capture(.textTyped(String(character)))) }
        return (state, effects)
    }

    @Test(
        "Done with a code still in the field commits it and writes no draft of that capture afterwards",
        arguments: [CaptureKind.barcode, .batch], [false, true])
    func doneWritesNoDraftAfterTheCommit(kind: CaptureKind, fromRequest: Bool) throws {
        var (state, _) = Self.typedButNotEntered(kind, fromRequest: fromRequest)
        #expect(state.presentation.capture?.kind == kind)
        let done = state.send(.capture(.doneTapped))
        let submission = try #require(done.commits.first, "Done commits")
        #expect(done.compactMap(\.savedDraft) == [], "Done's own effects write no draft: \(done)")
        #expect(state.unsavedDraft == nil, "nothing is due to be written while Done is under way")
        // Whatever arrives before the commit's outcome: a quit, a hang-up.
        var quitting = state
        #expect(quitting.send(.quitRequested).compactMap(\.savedDraft) == [])
        let committed = state.send(.captureCommitted(recordID: 1, submission: submission))
        #expect(committed.compactMap(\.savedDraft) == [])
        #expect(state.send(.quitRequested).compactMap(\.savedDraft) == [])
    }

    @Test("a commit that fails opens the capture again and its draft is kept once more")
    func aFailedCommitKeepsTheDraft() throws {
        var (state, _) = Self.typedButNotEntered(.barcode, fromRequest: false)
        _ = state.send(.capture(.doneTapped))
        let effects = state.send(.capture(.commitFailed("disk full")))
        #expect(try #require(effects.compactMap(\.savedDraft).last).barcode == validEAN13)
    }

    // MARK: - A typed photo path

    /// A Photos capture with `path` typed into its field, a key at a time.
    static func photosCapture(typing path: String) -> AppState {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.photos))])
        for character in path { _ = state.send(.capture(.textTyped(String(character)))) }
        return state
    }

    @Test("a typed photo path is in the draft; Ctrl-C asks about it and the second Ctrl-C writes it")
    func aTypedPathIsInTheDraft() throws {
        var state = Self.photosCapture(typing: "/tmp/x/shelf-two.png")
        #expect(state.presentation.capture?.draft?.typedPath == "/tmp/x/shelf-two.png")
        #expect(state.presentation.capture?.draft?.hasContent == true)
        _ = state.send(.interruptRequested)
        let capture = try #require(state.presentation.capture)
        #expect(capture.isConfirmingClose)
        #expect(Alert.confirmCaptureClose(capture).message == "Close throws away the typed path. Nothing is saved.")
        let effects = state.send(.interruptRequested)
        #expect(effects.last == .quit)
        // Each key was handed to the draft as it was typed: the quit finds nothing left to write.
        #expect(state.savedDraft?.typedPath == "/tmp/x/shelf-two.png")
        #expect(effects.compactMap(\.savedDraft) == [])
    }

    @Test("a draft's typed photo path comes back on resume, and the offer names it")
    func aTypedPathIsRestored() {
        var draft = CaptureDraft(kind: .photos, phase: "photos", photos: [Self.photo], updatedAt: Date())
        draft.typedPath = "/tmp/x/shelf-two.png"
        let offer = DraftOffer(RecoveredDraft(id: "a", draft: draft), config: CaptureConfig(), requests: [])
        #expect(offer.capture.photoPath.text == "/tmp/x/shelf-two.png")
        #expect(offer.capture.photos == [Self.photo])
        #expect(offer.summary == "A photos capture: 1 photo, a typed photo path.")
        #expect(offer.alert.message.hasSuffix("Its photos were kept on disk."))
    }

    @Test("the Resume question says files were kept only when the draft has photos", arguments: [CaptureKind.note, .barcode, .batch])
    func noFilesNoFilesSentence(kind: CaptureKind) {
        let draft = CaptureDraft(
            kind: kind, phase: kind == .note ? "note" : "barcode", barcode: kind == .barcode ? validEAN13 : nil,
            note: kind == .note ? "milk" : nil, lines: kind == .batch ? [BatchLine(barcode: validEAN13)] : nil, updatedAt: Date())
        let offer = DraftOffer(RecoveredDraft(id: "a", draft: draft), config: CaptureConfig(), requests: [])
        #expect(!offer.alert.message.contains("kept on disk"), "\(offer.alert.message)")
    }

    @Test("typing a path hands each keystroke to the draft at once")
    func typingAPathIsSavedAtOnce() throws {
        var state = Self.photosCapture(typing: "/")
        var saved: [String?] = []
        for character in "tmp/x.png" { saved += state.send(.capture(.textTyped(String(character)))).compactMap(\.savedDraft).map(\.typedPath) }
        #expect(saved.last == "/tmp/x.png")
        #expect(saved.count == "tmp/x.png".count, "no keystroke waits for a timer")
    }

    // MARK: - A photo being copied in

    @Test("Enter then Ctrl-C at once: the photo being copied is work, so Ctrl-C and Esc ask, and its draft names the path")
    func aCopyUnderWayIsWork() throws {
        var state = Self.photosCapture(typing: "/tmp/x/shelf one.png")
        let staging = state.send(.capture(.enterPressed))
        let stageDraft = try #require(
            staging.compactMap { if case let .stagePhoto(_, draft) = $0 { draft } else { nil } }.first, "the copy starts")
        #expect(stageDraft.typedPath == "/tmp/x/shelf one.png", "the draft written as the copy starts names the path")
        #expect(stageDraft.hasContent)
        #expect(state.presentation.capture?.copy != nil)

        var escaped = state
        _ = escaped.send(.capture(.closeTapped))
        #expect(escaped.presentation.capture?.isConfirmingClose == true, "Esc asks")

        #expect(state.send(.interruptRequested) == [])
        let capture = try #require(state.presentation.capture)
        #expect(capture.isConfirmingClose, "Ctrl-C asks")
        #expect(Alert.confirmCaptureClose(capture).message == "Close throws away the photo being added. Nothing is saved.")
        // The copy finishes behind the question: the photo is in, the path spent, and Keep
        // editing finds it there.
        let arrived = state.send(.capture(.photoStaged(Self.photo)))
        #expect(state.presentation.capture?.isConfirmingClose == true)
        #expect(state.presentation.capture?.copy == nil)
        let saved = try #require(arrived.compactMap(\.savedDraft).last, "the photo's arrival saves the draft")
        #expect(saved.typedPath == nil)
        #expect(saved.photos == [Self.photo])
        _ = state.send(.capture(.closeCancelled))
        #expect(state.presentation.capture?.photos == [Self.photo])
    }
}
