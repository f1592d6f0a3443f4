import CaptureMode
import Foundation
import TabShell
import Testing

/// However a session ends (a signal, a hang-up), the capture's draft holds what the screen
/// showed: a code typed just before, whose save otherwise waits for typing to pause.
@Suite struct DraftAtFinishTests {
    @Test func aCodeTypedJustBeforeTheEndIsInTheDraft() throws {
        let first = try RuntimeHarness()
        try first.start()
        first.press(.character("2"), .character("b"))
        first.type("40063813")
        #expect(first.state.presentation.capture?.barcodeInput.text == "40063813")
        first.runtime.finish()  // a SIGTERM or a hang-up: no timer fires first

        let second = try RuntimeHarness(folder: first.owner)
        try second.start()
        let alert = try #require(second.state.presentation.alert, "no draft offered")
        #expect(alert.message.contains("40063813"), "\(alert.message)")
    }
}
