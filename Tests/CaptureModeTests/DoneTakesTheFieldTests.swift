import CaptureMode
import Domain
import PropertyBased
import Testing

/// Done never silently drops what a field holds: a code typed without Enter is
/// taken as Enter would take it, a code that does not read keeps the capture open with its
/// sentence, and a typed photo path is added before Done can go on.
@Suite("Capture: Done takes what the field holds")
struct DoneTakesTheFieldTests {
    static let ean13 = Barcode(value: "4006381333931", symbology: .ean13)
    static let ean8 = Barcode(value: "96385074", symbology: .ean8)
    static let photo = StagedPhoto(storedName: "0A.png", originalName: "shelf.png", format: .png, pixelWidth: 4, pixelHeight: 3, byteSize: 20)

    static func started(_ kind: CaptureKind) -> CaptureState {
        var state = CaptureState(config: CaptureConfig(autoAdvanceMilliseconds: 800))
        _ = state.send(.kindChosen(kind))
        return state
    }

    @Test("Batch: a valid code typed without Enter is added as a scan, then committed")
    func batchTakesTheTypedCode() {
        var state = Self.started(.batch)
        _ = state.send(.textPasted(Self.ean8.value))
        _ = state.send(.textTyped(Self.ean13.value))
        let effects = state.send(.doneTapped)
        let lines = [BatchLine(barcode: Self.ean8), BatchLine(barcode: Self.ean13)]
        #expect(effects == [.commit(CaptureSubmission(kind: .batch, lines: lines, codeSource: .paste)), .firstSaveTick()])
        #expect(state.barcodeInput.isEmpty)
    }

    @Test("Batch: a repeat of a code typed without Enter counts once more")
    func batchCountsTheTypedRepeat() {
        var state = Self.started(.batch)
        _ = state.send(.textPasted(Self.ean8.value))
        _ = state.send(.textTyped(Self.ean8.value))
        #expect(state.send(.doneTapped).commitSubmission?.lines == [BatchLine(barcode: Self.ean8, quantity: 2)])
    }

    @Test("an invalid code in the field keeps the capture open with its sentence", arguments: [CaptureKind.batch, .barcode, .product])
    func invalidCodeKeepsTheCaptureOpen(kind: CaptureKind) {
        var state = Self.started(kind)
        if kind == .batch { _ = state.send(.textPasted(Self.ean8.value)) }
        _ = state.send(.textTyped("4006381333932"))
        #expect(state.send(.doneTapped) == [])
        #expect(!state.isCommitting)
        #expect(state.barcodeError != nil, "the code's own sentence shows")
        #expect(state.barcodeInput.text == "4006381333932", "the typed text is kept to correct")
        #expect(state.phase == .barcode)
    }

    @Test("Barcode: a valid code typed without Enter is the record's code")
    func barcodeTakesTheTypedCode() {
        var state = Self.started(.barcode)
        _ = state.send(.textTyped(Self.ean13.value))
        #expect(state.send(.doneTapped) == [.commit(CaptureSubmission(kind: .barcode, barcode: Self.ean13)), .firstSaveTick()])
    }

    @Test("Product: a valid code typed at its barcode step is kept, and Done asks for a photo")
    func productKeepsTheTypedCode() {
        var state = Self.started(.product)
        _ = state.send(.textTyped(Self.ean13.value))
        #expect(state.send(.doneTapped) == [])
        #expect(state.barcode == Self.ean13)
        #expect(state.phase == .photos)
        #expect(state.notice == CaptureIncomplete.noPhotos.message)
    }

    @Test("Photos: a typed path is added before Done goes on; once in, Done commits it", arguments: [CaptureKind.photos, .product])
    func typedPathIsAddedFirst(kind: CaptureKind) {
        var state = CaptureState(request: CaptureRequestLink(id: 1, title: "Shoot", kind: kind))
        if kind == .product { _ = state.send(.skipTapped) }
        _ = state.send(.textTyped("~/shelf.png"))
        #expect(state.send(.doneTapped) == [.stagePhoto(path: "~/shelf.png")])
        #expect(state.notice == CaptureIncomplete.typedPhotoFirst.message)
        #expect(!state.isCommitting)
        _ = state.send(.photoStaged(Self.photo))
        #expect(state.send(.doneTapped).commitSubmission?.photos == [Self.photo])
    }

    @Test("an empty or blank field changes nothing about Done")
    func blankFieldIsNotWork() {
        var state = Self.started(.batch)
        _ = state.send(.textPasted(Self.ean8.value))
        _ = state.send(.textTyped("   "))
        #expect(state.send(.doneTapped).commitSubmission?.lines == [BatchLine(barcode: Self.ean8)])
    }

    // MARK: - Property

    static let typed = ["4006381333931", "96385074", "4006381333932", "12345", "abc", " ", "~/a.png"]

    static func action(_ choice: Int, _ n: Int) -> CaptureAction {
        switch choice {
        case 0: .kindChosen(CaptureKind.available[n % CaptureKind.available.count])
        case 1: .textTyped(typed[n % typed.count])
        case 2: .textPasted(typed[n % typed.count])
        case 3: .enterPressed
        case 4: .backspacePressed
        case 5: .skipTapped
        case 6: .photoStaged(StagedPhoto(storedName: "\(n).png", originalName: "\(n).png", format: .png, pixelWidth: 1, pixelHeight: 1, byteSize: 1))
        case 7: .autoAdvanceElapsed(token: n % 4)
        default: .doneTapped
        }
    }

    @Test("in random captures, a Done that commits holds the code that was in the field")
    func doneNeverDropsTheField() async {
        let actions = zip(Gen.int(in: 0...9), Gen.int(in: 0...99)).map(Self.action).array(of: 1...60)
        await propertyCheck(count: 400, input: actions) { actions in
            var state = CaptureState(config: CaptureConfig(autoAdvanceMilliseconds: 800))
            for action in actions {
                let before = state
                let effects = state.send(action)
                guard action == .doneTapped, !before.isCommitting else { continue }
                let field = before.barcodeInput.text.trimmingCharacters(in: .whitespacesAndNewlines)
                let fieldOpen = before.phase == .barcode && (before.barcode == nil || before.kind == .batch) && !field.isEmpty
                let pathOpen = before.phase == .photos && before.copy == nil && !before.photoPath.text.trimmingCharacters(in: .whitespaces).isEmpty
                guard let submission = effects.commitSubmission else { continue }
                #expect(!pathOpen, "Done committed over a typed path: \(before.photoPath.text)")
                guard fieldOpen else { continue }
                let code = try? BarcodeValidator.read(field, options: before.config.scanOptions).barcode.get()
                #expect(code != nil, "Done committed over a code that does not read: \(field)")
                if let code, before.kind == .batch {
                    #expect(submission.lines.reduce(0) { $0 + $1.quantity } == before.batch.scanCount + 1, "the typed scan is counted")
                    #expect(submission.lines.contains { $0.barcode == code })
                } else if let code {
                    #expect(submission.barcode == code)
                }
            }
        }
    }
}

extension [CaptureEffect] {
    var commitSubmission: CaptureSubmission? {
        for case let .commit(submission) in self { return submission }
        return nil
    }
}
