import CaptureMode
import Domain
import TabShell
import Testing

@testable import Render

/// Done's save on screen: the message line says "Saving…", then how long it has waited, and
/// answers a key; the keys show over it; screen-reader mode announces the same sentence.
@Suite struct SavingLineTests {
    private static func saving(waited seconds: Int, _ more: (inout CaptureState) -> Void = { _ in }) -> Presentation {
        Demo.capture { capture in
            _ = capture.send(.kindChosen(.barcode))
            _ = capture.send(.textPasted("96385074"))
            _ = capture.send(.doneTapped)
            if seconds > 0 { _ = capture.send(.saveWaited(token: capture.saveToken, seconds: seconds)) }
            more(&capture)
        }
    }

    private static func render(_ presentation: Presentation, rows: Int = 24, screenReader: Bool = false) -> Frame {
        Screen.render(
            Demo.state(rows: rows, presentation: presentation), options: RenderOptions(unicode: true, color: true, now: Demo.now, screenReader: screenReader))
    }

    @Test func theWaitIsSaidWholeOnAnEightyColumnLine() {
        #expect(Self.render(Self.saving(waited: 2)).find("Saving…") != nil)
        #expect(Self.render(Self.saving(waited: 2)).find("has not answered") == nil)
        let waited = Self.render(Self.saving(waited: 12))
        #expect(waited.find("Saving… 12 s — the database has not answered; your capture is kept as a draft") != nil)
    }

    @Test func escapeIsAnsweredOnTheMessageLine() {
        let frame = Self.render(Self.saving(waited: 12) { _ = $0.send(.closeTapped) })
        #expect(frame.find("Saving… 12 s — Esc waits: saving is under way; your capture is safe as a draft") != nil)
    }

    @Test func theKeysShowOverTheSave() {
        let frame = Self.render(Self.saving(waited: 1) { _ = $0.send(.keysToggled) })
        #expect(frame.find("Capture: review") != nil, "the keys of review are listed")
    }

    @Test func aScreenReaderHearsTheWait() {
        let frame = Self.render(Self.saving(waited: 5), rows: 23, screenReader: true)
        let announcement = frame.grid.text(ofRow: frame.grid.height - 1).trimmingCharacters(in: .whitespaces)
        #expect(announcement == "Capture Barcode: saving, 5 s, no answer yet; kept as a draft.")
    }
}
