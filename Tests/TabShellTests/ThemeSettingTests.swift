import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

/// The theme in Settings and config.toml, and what copying says inside tmux.
@Suite("Shell: themes and the tmux clipboard note")
struct ThemeSettingTests {
    @Test("Settings has chosen no theme at first, so config.toml's applies; a choice there wins")
    func settingsWinsOverTheConfigFile() {
        var state = AppState.loaded()
        state.environment.theme = .light
        #expect(state.settings.theme == nil)
        #expect(state.theme == .light)
        #expect(state.send(.settings(.rowCycled(.theme, forward: true))) == [.saveSettings(state.settings)])
        #expect(state.settings.theme == .auto)
        #expect(state.theme == .auto)
        _ = state.send(.settings(.rowCycled(.theme, forward: true)))
        #expect(state.theme == .dark)
    }

    @Test("the Theme row steps through config.toml's, auto, dark, light, high contrast and round")
    func themeRowComesRound() {
        var settings = Settings.default
        var seen: [Theme?] = []
        for _ in 0..<5 {
            seen.append(settings.theme)
            settings.cycle(.theme, forward: true)
        }
        #expect(seen == [nil, .auto, .dark, .light, .highContrast])
        #expect(settings.theme == nil)
        settings.cycle(.theme, forward: false)
        #expect(settings.theme == .highContrast)
    }

    @Test("inside tmux that drops OSC 52, Copied says what to set, and stays until the next key")
    func copyInsideTmuxSaysWhatToSet() throws {
        var state = WheelAndCopyTests.history([WheelAndCopyTests.row(2, kind: .barcode, code: "4006381333931")])
        // The note arrives as an action after the first frame (asking tmux never holds that frame).
        #expect(state.send(.clipboardNoteFound("(tmux drops it unless set -g set-clipboard on)")).isEmpty)
        #expect(!AppAction.clipboardNoteFound("x").isUserInput)
        let effects = state.send(.history(.copyRequested(.code)))
        #expect(effects.contains(.copyToClipboard("4006381333931")), "the copy is still sent")
        #expect(state.status == StatusMessage("Copied 4006381333931 (tmux drops it unless set -g set-clipboard on)", kind: .info))
    }

    @Test("without a note (outside tmux, or set-clipboard on) Copied is as it was")
    func copyOutsideTmux() {
        var state = WheelAndCopyTests.history([WheelAndCopyTests.row(2, kind: .barcode, code: "4006381333931")])
        _ = state.send(.history(.copyRequested(.code)))
        #expect(state.status == StatusMessage("Copied 4006381333931", kind: .success))
    }
}
