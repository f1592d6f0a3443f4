import CaptureMode
import Domain
import PropertyBased
import Testing

private let ean13 = Barcode(value: "4006381333931", symbology: .ean13)

/// A capture that has just started the given kind from the picker.
private func started(_ kind: CaptureKind, config: CaptureConfig = CaptureConfig()) -> CaptureState {
    var state = CaptureState(config: config)
    _ = state.send(.kindChosen(kind))
    return state
}

/// A barcode capture whose code has been accepted and which has moved on to review.
private func reviewing(request: CaptureRequestLink? = nil) -> CaptureState {
    var state =
        request.map { CaptureState(config: CaptureConfig(autoAdvanceMilliseconds: 0), request: $0) }
        ?? started(.barcode, config: CaptureConfig(autoAdvanceMilliseconds: 0))
    _ = state.send(.textPasted(ean13.value))
    return state
}

// MARK: - Picker

@Suite("Capture: kind picker")
struct CapturePickerTests {
    @Test("a capture from the tab bar starts on the picker with no kind")
    func startsOnPicker() {
        let state = CaptureState()
        #expect(state.phase == .picker)
        #expect(state.kind == nil)
        #expect(state.pickerKinds == CaptureKind.available)
        #expect(!state.isEditingText)
    }

    @Test(
        "choosing a kind moves to its first phase",
        arguments: [
            (CaptureKind.barcode, CapturePhase.barcode),
            (.note, .note),
        ])
    func kindChosen(kind: CaptureKind, phase: CapturePhase) {
        var state = CaptureState()
        #expect(state.send(.kindChosen(kind)) == [])
        #expect(state.kind == kind)
        #expect(state.phase == phase)
        #expect(state.isEditingText)
    }

    @Test("the picker cursor moves within the offered kinds")
    func pickerCursorClamps() {
        var state = CaptureState()
        _ = state.send(.pickerCursorMoved(by: 5))
        #expect(state.pickerCursor == state.pickerKinds.count - 1)
        _ = state.send(.pickerCursorMoved(by: -9))
        #expect(state.pickerCursor == 0)
        _ = state.send(.cursorMoved(.down))
        #expect(state.pickerCursor == 1)
        _ = state.send(.cursorMoved(.home))
        #expect(state.pickerCursor == 0)
        _ = state.send(.cursorMoved(.end))
        #expect(state.pickerCursor == state.pickerKinds.count - 1)
        _ = state.send(.cursorMoved(.up))
        #expect(state.pickerCursor == state.pickerKinds.count - 2)
    }

    @Test("Enter on the picker captures the highlighted kind")
    func enterConfirmsHighlightedKind() {
        var state = CaptureState()
        _ = state.send(.pickerCursorMoved(by: 1))
        _ = state.send(.enterPressed)
        #expect(state.kind == state.pickerKinds[1])
        #expect(state.phase == .photos)
    }

    @Test(
        "each kind starts in its first phase",
        arguments: [
            (CaptureKind.barcode, CapturePhase.barcode), (.photos, .photos), (.product, .barcode), (.note, .note),
        ])
    func kindStartsInItsFirstPhase(kind: CaptureKind, phase: CapturePhase) {
        var state = CaptureState()
        #expect(state.send(.kindChosen(kind)) == [])
        #expect(state.phase == phase)
        #expect(state.kind == kind)
        #expect(state.notice == nil)
    }

    @Test("a kind cannot be chosen again once the capture has started")
    func kindChosenOnlyOnPicker() {
        var state = started(.barcode)
        _ = state.send(.kindChosen(.note))
        #expect(state.kind == .barcode)
        #expect(state.phase == .barcode)
    }

    @Test(
        "a request-linked capture skips the picker and uses the request's kind",
        arguments: [
            (CaptureKind.barcode, CapturePhase.barcode),
            (.note, .note),
        ])
    func requestLinkedStartSkipsPicker(kind: CaptureKind, phase: CapturePhase) {
        let link = CaptureRequestLink(id: 7, title: "Shelf 3", kind: kind)
        let state = CaptureState(request: link)
        #expect(state.kind == kind)
        #expect(state.phase == phase)
        #expect(state.request == link)
    }
}

// MARK: - Barcode

@Suite("Capture: barcode")
struct CaptureBarcodeTests {
    @Test("typed digits then Enter accept the code, show a toast and schedule auto-advance")
    func typedCodeIsAccepted() {
        var state = started(.barcode)
        for digit in ean13.value { _ = state.send(.textTyped(String(digit))) }
        let effects = state.send(.enterPressed)
        #expect(effects == [.scheduleAutoAdvance(milliseconds: 800, token: state.autoAdvanceToken)])
        #expect(state.barcode == ean13)
        #expect(state.scanToast == ean13)
        #expect(state.phase == .barcode)
        #expect(!state.isEditingText)
    }

    @Test("a scanner burst (one textTyped with the whole code) works like typing")
    func scannerBurst() {
        var state = started(.barcode)
        _ = state.send(.textTyped("5901234123457"))
        _ = state.send(.enterPressed)
        #expect(state.barcode == Barcode(value: "5901234123457", symbology: .ean13))
    }

    @Test("the configured delay is what gets scheduled")
    func configuredDelay() {
        var state = started(.barcode, config: CaptureConfig(autoAdvanceMilliseconds: 1500))
        let effects = state.send(.textPasted(ean13.value))
        #expect(effects == [.scheduleAutoAdvance(milliseconds: 1500, token: state.autoAdvanceToken)])
    }

    @Test("a stale auto-advance timer is ignored; the current one moves to review")
    func autoAdvanceToken() throws {
        var state = started(.barcode)
        let effects = state.send(.textPasted(ean13.value))
        guard case let .scheduleAutoAdvance(_, token)? = effects.first else {
            Issue.record("expected a scheduled auto-advance, got \(effects)")
            return
        }
        #expect(state.send(.autoAdvanceElapsed(token: token - 1)) == [])
        #expect(state.phase == .barcode)
        #expect(state.scanToast == ean13)

        #expect(state.send(.autoAdvanceElapsed(token: token)) == [])
        #expect(state.phase == .review)
        #expect(state.scanToast == nil)
        #expect(state.barcode == ean13)
    }

    @Test("a timer that fires after Enter already advanced does nothing")
    func timerAfterManualAdvance() {
        var state = started(.barcode)
        let effects = state.send(.textPasted(ean13.value))
        _ = state.send(.enterPressed)
        #expect(state.phase == .review)
        let before = state
        if case let .scheduleAutoAdvance(_, token)? = effects.first {
            #expect(state.send(.autoAdvanceElapsed(token: token)) == [])
        }
        #expect(state == before)
    }

    @Test("with a delay of 0 the flow advances at once without scheduling")
    func zeroDelayAdvancesAtOnce() {
        var state = started(.barcode, config: CaptureConfig(autoAdvanceMilliseconds: 0))
        _ = state.send(.textTyped(ean13.value))
        #expect(state.send(.enterPressed) == [])
        #expect(state.phase == .review)
        #expect(state.barcode == ean13)
        #expect(state.scanToast == nil)
    }

    @Test("Enter during the toast advances at once")
    func enterDuringToastAdvances() {
        var state = started(.barcode)
        _ = state.send(.textPasted(ean13.value))
        #expect(state.send(.enterPressed) == [])
        #expect(state.phase == .review)
        #expect(state.scanToast == nil)
    }

    @Test("a bad check digit keeps the input and shows the error; editing clears it")
    func badCheckDigitKeepsInput() {
        var state = started(.barcode)
        _ = state.send(.textTyped("4006381333932"))
        #expect(state.send(.enterPressed) == [])
        #expect(state.barcodeError == .badCheckDigit(symbology: .ean13, expected: "1", found: "2"))
        #expect(state.barcodeInput.text == "4006381333932")
        #expect(state.barcode == nil)
        #expect(state.phase == .barcode)

        _ = state.send(.backspacePressed)
        #expect(state.barcodeError == nil)
        _ = state.send(.textTyped("1"))
        _ = state.send(.enterPressed)
        #expect(state.barcode == ean13)
    }

    @Test("Enter on an empty field explains what to do")
    func enterOnEmpty() {
        var state = started(.barcode)
        _ = state.send(.enterPressed)
        #expect(state.barcodeError == .empty)
    }

    @Test("after the first accepted code, input stops (single scan)")
    func singleScan() {
        var state = started(.barcode)
        _ = state.send(.textPasted(ean13.value))
        let before = state
        for action: CaptureAction in [
            .textTyped("5"), .textPasted("5901234123457"), .backspacePressed, .deletePressed, .cursorMoved(.left),
        ] {
            #expect(state.send(action) == [])
        }
        #expect(state == before)
    }

    @Test("a bracketed paste is checked at once, trailing newline and all")
    func pasteValidatesImmediately() {
        var state = started(.barcode)
        let effects = state.send(.textPasted("5901234123457\r\n"))
        #expect(state.barcode == Barcode(value: "5901234123457", symbology: .ean13))
        #expect(effects == [.scheduleAutoAdvance(milliseconds: 800, token: state.autoAdvanceToken)])
    }

    @Test("a pasted bad code shows the error and keeps the text")
    func pastedBadCode() {
        var state = started(.barcode)
        #expect(state.send(.textPasted("96385070")) == [])
        #expect(state.barcodeError == .badCheckDigit(symbology: .ean8, expected: "4", found: "0"))
        #expect(state.barcodeInput.text == "96385070")
    }

    @Test("free text is accepted only when the setting allows it")
    func freeText() {
        var allowed = started(.barcode, config: CaptureConfig(allowsFreeText: true))
        _ = allowed.send(.textPasted("https://example.com/item/42"))
        #expect(allowed.barcode == Barcode(value: "https://example.com/item/42", symbology: .freeText))

        var refused = started(.barcode)
        _ = refused.send(.textPasted("https://example.com/item/42"))
        #expect(refused.barcode == nil)
        #expect(refused.barcodeError == .notACode)
    }
}

// MARK: - Note

@Suite("Capture: note")
struct CaptureNoteTests {
    @Test("typing, Enter and editing keys edit the note")
    func editingNote() {
        var state = started(.note)
        _ = state.send(.textTyped("milk"))
        _ = state.send(.enterPressed)
        _ = state.send(.textTyped("egs"))
        _ = state.send(.cursorMoved(.left))
        _ = state.send(.textTyped("g"))
        #expect(state.note.text == "milk\neggs")
        _ = state.send(.cursorMoved(.up))
        _ = state.send(.deletePressed)
        _ = state.send(.backspacePressed)
        #expect(state.note.text == "mi\neggs")
    }

    @Test("a pasted note keeps its lines")
    func pastedNote() {
        var state = started(.note)
        #expect(state.send(.textPasted("one\r\ntwo")) == [])
        #expect(state.note.text == "one\ntwo")
    }

    @Test("Done with a note commits it")
    func doneCommitsNote() {
        var state = started(.note)
        _ = state.send(.textTyped("milk"))
        #expect(state.send(.doneTapped) == [.commit(CaptureSubmission(kind: .note, note: "milk")), .firstSaveTick()])
        #expect(state.isCommitting)
    }

    @Test("Done with a blank note says why and commits nothing")
    func doneWithBlankNote() {
        var state = started(.note)
        _ = state.send(.textTyped("  "))
        _ = state.send(.enterPressed)
        #expect(state.send(.doneTapped) == [])
        #expect(state.notice == CaptureIncomplete.emptyNote.message)
        #expect(!state.isCommitting)
        _ = state.send(.textTyped("x"))
        #expect(state.notice == nil)
    }
}

// MARK: - Done and Close

@Suite("Capture: Done and Close")
struct CaptureDoneCloseTests {
    @Test(
        "Done on an incomplete capture sets a notice and returns no effect",
        arguments: [
            (CaptureState(), CaptureIncomplete.noKindChosen),
            (started(.barcode), .noBarcode),
            (started(.note), .emptyNote),
        ])
    func doneIncomplete(state: CaptureState, reason: CaptureIncomplete) {
        var state = state
        #expect(state.send(.doneTapped) == [])
        #expect(state.notice == reason.message)
        #expect(!state.isCommitting)
    }

    @Test("Done on a complete capture commits the submission with its request")
    func doneComplete() {
        var state = reviewing(request: CaptureRequestLink(id: 12, title: "Pallet", kind: .barcode))
        #expect(state.phase == .review)
        let effects = state.send(.doneTapped)
        #expect(effects == [.commit(CaptureSubmission(kind: .barcode, barcode: ean13, requestID: 12, codeSource: .paste)), .firstSaveTick()])
        #expect(state.isCommitting)
        #expect(!state.isEditingText)
    }

    @Test("Enter on review is Done")
    func enterOnReviewIsDone() {
        var state = reviewing()
        #expect(state.send(.enterPressed) == [.commit(CaptureSubmission(kind: .barcode, barcode: ean13, codeSource: .paste)), .firstSaveTick()])
    }

    @Test("Done during the toast commits the accepted code")
    func doneDuringToast() {
        var state = started(.barcode)
        _ = state.send(.textPasted(ean13.value))
        #expect(state.send(.doneTapped) == [.commit(CaptureSubmission(kind: .barcode, barcode: ean13, codeSource: .paste)), .firstSaveTick()])
    }

    @Test("input changes nothing while committing, Close and Done included")
    func inputIgnoredWhileCommitting() {
        var state = started(.note)
        _ = state.send(.textTyped("milk"))
        _ = state.send(.doneTapped)
        let before = state
        for action: CaptureAction in [
            .textTyped("x"), .textPasted("y"), .enterPressed, .backspacePressed, .deletePressed,
            .cursorMoved(.home), .doneTapped, .closeTapped, .autoAdvanceElapsed(token: state.autoAdvanceToken),
            .kindChosen(.barcode), .pickerConfirmed,
        ] {
            #expect(state.send(action) == [])
        }
        // Nothing changed but the sentence each key was answered with (SavingCaptureTests).
        #expect(state.saving?.currentReply != nil)
        state.saving = before.saving
        #expect(state == before)
    }

    @Test("a failed commit returns to editing with the message; Done can be tried again")
    func commitFailed() {
        var state = started(.note)
        _ = state.send(.textTyped("milk"))
        _ = state.send(.doneTapped)
        #expect(state.send(.commitFailed("The disk is full.")) == [])
        #expect(!state.isCommitting)
        #expect(state.notice == "The disk is full.")
        #expect(state.isEditingText)
        _ = state.send(.textTyped("!"))
        #expect(state.note.text == "milk!")
        #expect(state.send(.doneTapped) == [.commit(CaptureSubmission(kind: .note, note: "milk!")), .firstSaveTick(of: 2)])
    }

    @Test("commitFailed outside a commit changes nothing")
    func commitFailedWhenNotCommitting() {
        var state = started(.note)
        let before = state
        #expect(state.send(.commitFailed("late")) == [])
        #expect(state == before)
    }

    @Test(
        "Close dismisses an empty capture from every phase",
        arguments: [
            CaptureState(),
            started(.barcode),
            started(.note),
            started(.photos),
            started(.product),
        ])
    func closeDismisses(state: CaptureState) {
        var state = state
        #expect(state.send(.closeTapped) == [.dismiss])
    }

    @Test(
        "Close asks first whenever the capture holds something, and says what",
        arguments: [
            (
                {
                    var s = started(.barcode)
                    _ = s.send(.textTyped("40"))
                    return s
                }(), "the typed code"
            ),
            (
                {
                    var s = started(.barcode)
                    _ = s.send(.textPasted(ean13.value))
                    return s
                }(), "the code"
            ),
            (
                {
                    var s = started(.note)
                    _ = s.send(.textTyped("Aisle 7"))
                    return s
                }(), "the note"
            ),
            (
                {
                    var s = started(.photos)
                    _ = s.send(.textTyped("~/shelf"))
                    return s
                }(), "the typed path"
            ),
            (reviewing(), "the code"),
        ])
    func closeAsksWhenThereIsWork(state: CaptureState, what: String) {
        var state = state
        #expect(state.send(.closeTapped) == [])
        #expect(state.isConfirmingClose)
        #expect(state.collectedWork.contains(what), "\(state.collectedWork)")
        #expect(state.send(.closeCancelled) == [])
        #expect(!state.isConfirmingClose)
        _ = state.send(.closeTapped)
        #expect(state.send(.closeConfirmed) == [.dismiss])
    }

    @Test("whitespace alone is not work")
    func whitespaceIsNotWork() {
        var state = started(.note)
        _ = state.send(.textTyped("   "))
        #expect(state.send(.closeTapped) == [.dismiss])
    }
}

// MARK: - Properties

@Suite("Capture: random sessions")
struct CapturePropertyTests {
    static let codes = ["4006381333931", "96385074", "4006381333932", "12345", "abc", "", "5901234123457\n"]

    static func action(_ kind: Int, _ n: Int) -> CaptureAction {
        switch kind {
        case 0: .kindChosen(CaptureKind.allCases[n % CaptureKind.allCases.count])
        case 1: .pickerCursorMoved(by: n % 3 - 1)
        case 2: .pickerConfirmed
        case 3: .textTyped(String(n % 10))
        case 4: .textTyped(codes[n % codes.count])
        case 5: .textPasted(codes[n % codes.count])
        case 6: .enterPressed
        case 7: .backspacePressed
        case 8: .deletePressed
        case 9: .cursorMoved([.left, .right, .up, .down, .home, .end][n % 6])
        case 10: .autoAdvanceElapsed(token: n % 4)
        case 11: .doneTapped
        case 12: .closeTapped
        default: .commitFailed("failed \(n)")
        }
    }

    @Test("once a code is accepted it never changes, and the cursors stay in bounds")
    func acceptedCodeIsFinal() async {
        let actions = zip(Gen.int(in: 0...13), Gen.int(in: 0...99)).map(Self.action).array(of: 1...100)
        await propertyCheck(count: 500, input: actions, Gen.int(in: 0...2)) { actions, delayChoice in
            var state = CaptureState(config: CaptureConfig(autoAdvanceMilliseconds: [0, 400, 800][delayChoice]))
            var accepted: Barcode?
            for action in actions {
                let effects = state.send(action)
                if let accepted, state.barcode != accepted {
                    Issue.record("accepted \(accepted) became \(String(describing: state.barcode)) after \(action)")
                    return
                }
                accepted = state.barcode
                let committed = effects.contains { if case .commit = $0 { true } else { false } }
                #expect(committed == false || state.isCommitting)
                #expect((0...state.barcodeInput.characters.count).contains(state.barcodeInput.cursor))
                #expect((0...state.note.characters.count).contains(state.note.cursor))
                #expect(state.pickerKinds.indices.contains(state.pickerCursor))
            }
        }
    }
}
