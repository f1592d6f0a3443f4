import CaptureMode
import Domain
import Testing

extension CaptureEffect {
    /// The first tick of the wait of Done number `token`, which Done schedules with its commit.
    static func firstSaveTick(of token: Int = 1) -> CaptureEffect {
        .scheduleSaveTick(milliseconds: PendingSave.tickMilliseconds, token: token, seconds: 1)
    }
}

/// While Done's save waits for the store, what does not change the capture acts at once, Esc
/// says the save goes on and the work is safe, every other key is refused with a sentence; the
/// wait is counted by ticks (a fixed clock: each `.saveWaited` names its second).
@Suite("Capture: keys while Done saves")
struct SavingCaptureTests {
    private static let ean13 = Barcode(value: "4006381333931", symbology: .ean13)
    private static let photo = StagedPhoto(storedName: "s0.png", originalName: "shelf.png", format: .png, pixelWidth: 64, pixelHeight: 48, byteSize: 900)

    /// A note saved by Done, its save waiting.
    private static func savingNote() -> CaptureState {
        var state = CaptureState()
        _ = state.send(.kindChosen(.note))
        _ = state.send(.textTyped("shelf 4"))
        _ = state.send(.doneTapped)
        return state
    }

    /// A barcode at review, saved by Done.
    private static func savingReview() -> CaptureState {
        var state = CaptureState()
        _ = state.send(.kindChosen(.barcode))
        _ = state.send(.textPasted(ean13.value))
        _ = state.send(.enterPressed)
        _ = state.send(.doneTapped)
        return state
    }

    private static func line(_ state: CaptureState) -> String? { state.saving?.line(ellipsis: "…") }

    @Test("Done starts the save and its wait's first tick")
    func doneStartsTheWait() {
        var state = CaptureState()
        _ = state.send(.kindChosen(.note))
        _ = state.send(.textTyped("milk"))
        #expect(state.send(.doneTapped) == [.commit(CaptureSubmission(kind: .note, note: "milk")), .firstSaveTick()])
        #expect(state.saving == PendingSave(token: 1))
        #expect(Self.line(state) == "Saving…")
    }

    @Test("F1 and ? show the keys while saving, and close them; the save goes on")
    func keysAct() {
        var state = Self.savingNote()
        #expect(state.send(.keysToggled) == [])
        #expect(state.isShowingKeys && state.isCommitting)
        #expect(state.send(.keysToggled) == [])
        #expect(!state.isShowingKeys && state.isCommitting)
        // In the note `?` would be typed; nothing is typed while saving, so it shows the keys.
        #expect(state.send(.textTyped("?")) == [])
        #expect(state.isShowingKeys)
        #expect(state.note.text == "shelf 4")
    }

    @Test("the wheel scrolls review while saving")
    func scrollingActs() {
        var state = Self.savingReview()
        #expect(state.phase == .review)
        #expect(state.send(.bodyScrolled(by: 1)) == [])
        #expect(state.reviewScrollOffset == 1)
        #expect(state.saving?.currentReply == nil)
    }

    @Test("Up and Down highlight another staged photo while saving (the one the viewer shows)")
    func photoHighlightActs() {
        var state = CaptureState()
        _ = state.send(.kindChosen(.photos))
        _ = state.send(.textTyped("a.png"))
        _ = state.send(.enterPressed)
        _ = state.send(.photoStaged(Self.photo))
        _ = state.send(.textTyped("b.png"))
        _ = state.send(.enterPressed)
        _ = state.send(.photoStaged(StagedPhoto(storedName: "s1.png", originalName: "b.png", format: .png, pixelWidth: 64, pixelHeight: 48, byteSize: 900)))
        #expect(state.send(.doneTapped).count == 2)
        #expect(state.photoCursor == 1)
        #expect(state.send(.cursorMoved(.up)) == [])
        #expect(state.photoCursor == 0)
        #expect(state.photos.count == 2)
    }

    @Test("Esc explains: the save is under way and the capture is safe as a draft; nothing closes")
    func escapeExplains() {
        var state = Self.savingNote()
        #expect(state.send(.closeTapped) == [])
        #expect(state.isCommitting)
        #expect(state.overlay == .none, "no question before discarding: nothing is discarded")
        #expect(state.saving?.currentReply == .closeWaits)
        #expect(Self.line(state) == "Saving… — Esc waits: saving is under way; your capture is safe as a draft")
    }

    @Test(
        "a key that would change the capture is refused with a sentence, and changes nothing",
        arguments: [
            CaptureAction.textTyped("x"), .textPasted("5901234123457"), .backspacePressed, .deletePressed, .deleteToLineStartPressed,
            .cursorMoved(.left), .enterPressed, .scanRemovalRequested, .scanRestoreRequested, .skipTapped, .completionRequested,
            .photoRemovalRequested, .retakeTapped,
        ])
    func changesAreRefused(action: CaptureAction) {
        var state = Self.savingNote()
        let before = state
        #expect(state.send(action) == [])
        #expect(state.saving?.currentReply == .captureLocked)
        #expect(Self.line(state) == "Saving… — the capture cannot change while it is being saved")
        var unchanged = state
        unchanged.saving = before.saving
        #expect(unchanged == before, "only the reply changed")
    }

    @Test("Done again, or Enter on review, says the save is already under way and commits nothing more")
    func doneAgainIsRefused() {
        var state = Self.savingReview()
        #expect(state.send(.doneTapped) == [])
        #expect(state.saving?.currentReply == .alreadySaving)
        #expect(state.send(.enterPressed) == [])
        #expect(Self.line(state) == "Saving… — Done is already saving this capture")
        #expect(state.saving?.token == 1)
    }

    @Test("after 3 s the line says how long the save has waited, and counts on; a tick of an earlier Done does not count")
    func waitIsCounted() {
        var state = Self.savingNote()
        #expect(state.send(.saveWaited(token: 1, seconds: 1)) == [.scheduleSaveTick(milliseconds: 1000, token: 1, seconds: 2)])
        #expect(Self.line(state) == "Saving…")
        _ = state.send(.saveWaited(token: 1, seconds: 2))
        #expect(Self.line(state) == "Saving…", "a short wait is not worth a sentence")
        #expect(state.send(.saveWaited(token: 1, seconds: 3)) == [.scheduleSaveTick(milliseconds: 1000, token: 1, seconds: 4)])
        #expect(Self.line(state) == "Saving… 3 s — the database has not answered; your capture is kept as a draft")
        _ = state.send(.saveWaited(token: 1, seconds: 7))
        #expect(Self.line(state) == "Saving… 7 s — the database has not answered; your capture is kept as a draft")
        #expect(state.send(.saveWaited(token: 0, seconds: 30)) == [], "a stale tick schedules nothing")
        #expect(state.saving?.waitedSeconds == 7)
    }

    @Test("a reply shows for 3 s beside the count, then the wait's sentence comes back")
    func replyExpires() {
        var state = Self.savingNote()
        _ = state.send(.saveWaited(token: 1, seconds: 4))
        _ = state.send(.closeTapped)
        #expect(Self.line(state) == "Saving… 4 s — Esc waits: saving is under way; your capture is safe as a draft")
        _ = state.send(.saveWaited(token: 1, seconds: 6))
        #expect(state.saving?.currentReply == .closeWaits)
        _ = state.send(.saveWaited(token: 1, seconds: 7))
        #expect(Self.line(state) == "Saving… 7 s — the database has not answered; your capture is kept as a draft")
    }

    @Test("a failed save gives the capture back with the failure, the keys closed; the next Done is a new save")
    func failureGivesTheCaptureBack() {
        var state = Self.savingNote()
        _ = state.send(.saveWaited(token: 1, seconds: 9))
        _ = state.send(.keysToggled)
        #expect(state.send(.commitFailed("Cannot reach PostgreSQL.")) == [])
        #expect(!state.isCommitting && !state.isShowingKeys)
        #expect(state.notice == "Cannot reach PostgreSQL.")
        #expect(state.send(.saveWaited(token: 1, seconds: 10)) == [], "the old save's tick stops")
        _ = state.send(.textTyped("!"))
        #expect(state.note.text == "shelf 4!")
        #expect(state.send(.doneTapped) == [.commit(CaptureSubmission(kind: .note, note: "shelf 4!")), .firstSaveTick(of: 2)])
        #expect(Self.line(state) == "Saving…")
    }
}
