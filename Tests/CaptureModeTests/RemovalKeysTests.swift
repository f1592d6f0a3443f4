import CaptureMode
import Domain
import Testing

/// Nothing collected is taken back by an editing key: Backspace on a batch's empty
/// field and Del on the empty photo field only say which key removes; the removal keys do, a
/// removed scan comes back at its place, and every sentence names the keys in force.
@Suite struct RemovalKeysTests {
    static let codes = ["4006381333931", "96385074", "5901234123457"]

    /// A batch holding the three codes, the first scanned twice: lines 4006381333931 ×2,
    /// 96385074 ×1, 5901234123457 ×1.
    static func batch(keys: CaptureKeyNames = CaptureKeyNames()) -> CaptureState {
        var config = CaptureConfig()
        config.keyNames = keys
        var state = CaptureState(config: config, request: CaptureRequestLink(id: 1, title: "Count", kind: .batch))
        for code in codes + [codes[0]] {
            _ = state.send(.textTyped(code))
            _ = state.send(.enterPressed)
        }
        return state
    }

    @Test func holdingBackspaceNeverTouchesTheScans() {
        var state = Self.batch()
        _ = state.send(.textTyped("40063"))
        let before = state.batch
        for _ in 0..<40 { _ = state.send(.backspacePressed) }
        #expect(state.barcodeInput.isEmpty, "the typo is gone")
        #expect(state.batch == before, "every scan is still there")
        #expect(state.batch.scanCount == 4)
        #expect(state.batchMessage == "The field is empty; Ctrl-X removes the last scan.")
    }

    @Test func theRemovalKeyTakesTheLastScanAndTheUndoKeyPutsItBackAtItsPlace() {
        var state = Self.batch()
        let full = state.batch
        _ = state.send(.scanRemovalRequested)
        #expect(state.batch.lines.map(\.quantity) == [1, 1, 1])
        #expect(state.batchMessage == "Removed one 4006381333931: now 1. Ctrl-R puts it back.")
        _ = state.send(.scanRemovalRequested)
        _ = state.send(.scanRemovalRequested)
        #expect(state.batch.lines.map(\.barcode.value) == ["4006381333931"], "the last two lines went")
        #expect(state.batchMessage == "Removed 96385074. Ctrl-R puts it back.")
        _ = state.send(.scanRestoreRequested)
        _ = state.send(.scanRestoreRequested)
        _ = state.send(.scanRestoreRequested)
        #expect(state.batch == full, "lines, counts and the order of scans as they were")
        #expect(state.batchMessage == "Put back one 4006381333931: now 2.")
        _ = state.send(.scanRestoreRequested)
        #expect(state.batch == full, "nothing more to put back")
    }

    @Test func aLineRemovedInTheMiddleComesBackThere() {
        var state = Self.batch()
        _ = state.send(.scanRemovalRequested)  // one 4006381333931
        _ = state.send(.scanRemovalRequested)  // 5901234123457
        _ = state.send(.textTyped("96385074"))
        _ = state.send(.enterPressed)  // 96385074 again, after the removals
        _ = state.send(.scanRestoreRequested)
        #expect(state.batch.lines.map(\.barcode.value) == Self.codes)
        _ = state.send(.scanRestoreRequested)
        #expect(state.batch.lines.map(\.quantity) == [2, 2, 1])
        #expect(state.batch.scanCount == 5)
        // The scans keep their order: taking them back one by one goes newest first.
        _ = state.send(.scanRemovalRequested)
        #expect(state.batch.lines.map(\.quantity) == [2, 1, 1], "the repeat of 96385074 was the latest scan")
    }

    @Test func sentencesNameTheKeysInForce() {
        var state = Self.batch(keys: CaptureKeyNames(removeScan: "Ctrl-K", restoreScan: nil, removePhoto: "F8"))
        _ = state.send(.backspacePressed)
        #expect(state.batchMessage == "The field is empty; Ctrl-K removes the last scan.")
        _ = state.send(.scanRemovalRequested)
        #expect(state.batchMessage == "Removed one 4006381333931: now 1.", "no undo key bound: none offered")

        var unbound = Self.batch(keys: CaptureKeyNames(removeScan: nil, restoreScan: nil, removePhoto: nil))
        let message = unbound.batchMessage
        _ = unbound.send(.backspacePressed)
        #expect(unbound.batchMessage == message, "no removal key bound: no hint naming one")
    }

    // MARK: - Photos

    static let photo = StagedPhoto(storedName: "0A.png", originalName: "shelf.png", format: .png, pixelWidth: 640, pixelHeight: 480, byteSize: 2048)

    static func photos(maximum: Int = 3, keys: CaptureKeyNames = CaptureKeyNames()) -> CaptureState {
        var config = CaptureConfig(maximumPhotos: maximum)
        config.keyNames = keys
        var state = CaptureState(config: config, request: CaptureRequestLink(id: 1, title: "Shoot", kind: .photos))
        _ = state.send(.textTyped("~/shelf.png"))
        _ = state.send(.enterPressed)
        _ = state.send(.photoStaged(photo))
        return state
    }

    @Test func delOnTheEmptyPhotoFieldRemovesNothing() {
        var state = Self.photos()
        _ = state.send(.textTyped("ab"))
        _ = state.send(.cursorMoved(.home))
        var effects: [CaptureEffect] = []
        for _ in 0..<10 { effects += state.send(.deletePressed) }
        #expect(state.photoPath.isEmpty)
        #expect(state.photos == [Self.photo], "holding Del to clear the path keeps the photo")
        #expect(effects.isEmpty)
        #expect(state.photoMessage == .information("The field is empty; Ctrl-X removes the highlighted photo."))
        #expect(state.send(.photoRemovalRequested) == [.unstagePhoto(Self.photo)], "the removal key removes it")
        #expect(state.photos.isEmpty)
    }

    @Test func theLimitNamesTheRemovalKeyInForceNotDel() {
        var state = Self.photos(maximum: 1)
        _ = state.send(.textTyped("~/second.png"))
        _ = state.send(.enterPressed)
        #expect(state.photoMessage == .problem("This capture holds at most 1 photos; remove one first (Ctrl-X)."))

        var rebound = Self.photos(maximum: 1, keys: CaptureKeyNames(removePhoto: "F8"))
        _ = rebound.send(.textTyped("~/second.png"))
        _ = rebound.send(.enterPressed)
        #expect(rebound.photoMessage?.text.hasSuffix("remove one first (F8).") == true)
        #expect(rebound.photoMessage?.text.contains("Del") == false)
    }
}
