import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

/// In capture: the wheel scrolls review's fields and a batch's lines, and a click on
/// the kind picker selects before it chooses.
@Suite("Shell: the wheel and clicks in capture")
struct CaptureWheelTests {
    static func down(_ row: Int = WheelAndCopyTests.overContent.row) -> AppAction { WheelAndCopyTests.down(row) }
    static func up(_ row: Int = WheelAndCopyTests.overContent.row) -> AppAction { WheelAndCopyTests.up(row) }

    /// A capture of `kind` resumed at `phase`, shown full screen.
    static func capture(_ kind: CaptureKind, phase: CapturePhase, note: String? = nil, lines: [BatchLine] = []) -> AppState {
        var state = AppState.loaded()
        state.presentation = .fullScreenCapture(
            CaptureState(config: CaptureConfig(), request: nil, kind: kind, phase: phase, barcode: nil, note: note, photos: [], lines: lines))
        return state
    }

    static func lines(_ count: Int) -> [BatchLine] {
        (0..<count).map { BatchLine(barcode: Barcode(value: "CODE-\($0)", symbology: .freeText)) }
    }

    @Test("a click on a picker row selects it; a second click on it chooses that kind")
    func pickerClickSelectsThenChooses() throws {
        var state = AppState.loaded()
        _ = state.send(.tabChosen(.create))
        let kinds = try #require(state.presentation.capture?.pickerKinds)
        let index = try #require(kinds.firstIndex(of: .note))
        #expect(index != state.presentation.capture?.pickerCursor, "the test clicks a row not yet selected")
        _ = state.send(.capture(.pickerRowClicked(index)))
        #expect(state.presentation.capture?.phase == .picker, "the first click only selects")
        #expect(state.presentation.capture?.pickerCursor == index)
        _ = state.send(.capture(.pickerRowClicked(index)))
        #expect(state.presentation.capture?.kind == .note)
        #expect(state.presentation.capture?.phase == .note)
    }

    @Test("a click on another row moves the selection and chooses nothing; clicks past the list do nothing")
    func pickerClickElsewhere() {
        var state = AppState.loaded()
        _ = state.send([.tabChosen(.create), .capture(.pickerRowClicked(1)), .capture(.pickerRowClicked(0))])
        #expect(state.presentation.capture?.phase == .picker)
        #expect(state.presentation.capture?.pickerCursor == 0)
        _ = state.send(.capture(.pickerRowClicked(99)))
        #expect(state.presentation.capture?.pickerCursor == 0)
        #expect(state.presentation.capture?.phase == .picker)
    }

    @Test("the wheel over a batch scrolls to older lines, never past the oldest, and a new scan brings the latest back")
    func wheelScrollsABatch() {
        var state = Self.capture(.batch, phase: .barcode, lines: Self.lines(5))
        _ = state.send([Self.down(), Self.down()])
        #expect(state.presentation.capture?.batchScrollOffset == 2)
        _ = state.send(Self.up())
        #expect(state.presentation.capture?.batchScrollOffset == 1)
        for _ in 0..<10 { _ = state.send(Self.down()) }
        #expect(state.presentation.capture?.batchScrollOffset == 4, "the oldest line stays in view")
        for _ in 0..<10 { _ = state.send(Self.up()) }
        #expect(state.presentation.capture?.batchScrollOffset == 0)
        _ = state.send([Self.down(), .capture(.textPasted("4006381333931"))])
        #expect(state.presentation.capture?.batch.lines.count == 6)
        #expect(state.presentation.capture?.batchScrollOffset == 0)
    }

    @Test("the wheel over review scrolls its fields, and leaving review starts them at the top again")
    func wheelScrollsReview() {
        let note = (1...40).map { "line \($0)" }.joined(separator: "\n")
        var state = Self.capture(.note, phase: .review, note: note)
        _ = state.send([Self.down(), Self.down(), Self.down()])
        #expect(state.presentation.capture?.reviewScrollOffset == 3)
        _ = state.send(Self.up())
        #expect(state.presentation.capture?.reviewScrollOffset == 2)
        for _ in 0..<200 { _ = state.send(Self.down()) }
        let bottom = state.presentation.capture?.reviewScrollOffset ?? 0
        #expect(bottom >= 40 && bottom < 200, "bounded: \(bottom)")
        _ = state.send(.capture(.cursorMoved(.up)))
        for _ in 0..<300 { _ = state.send(Self.up()) }
        #expect(state.presentation.capture?.reviewScrollOffset == 0)
    }

    @Test("a single code's field and the note editor take no wheel")
    func wheelLeavesOtherFieldsAlone() {
        var state = Self.capture(.barcode, phase: .barcode)
        _ = state.send(Self.down())
        #expect(state.presentation.capture?.batchScrollOffset == 0)
        var note = Self.capture(.note, phase: .note, note: "a\nb\nc")
        let before = note.presentation
        _ = note.send(Self.down())
        #expect(note.presentation == before)
    }
}
