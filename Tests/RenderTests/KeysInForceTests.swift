import CaptureMode
import Domain
import Foundation
import Testing

@testable import Render
@testable import TabShell

/// Every text that names a key names the key in force: config.toml's `[keys]` rebinding
/// changes the screen's sentences as it changes the hint line.
@Suite struct KeysInForceTests {
    static let screenReader = RenderOptions(unicode: true, color: true, now: Demo.now, screenReader: true)

    static func text(of frame: Frame) -> String {
        (0..<frame.grid.height).map { frame.grid.text(ofRow: $0) }.joined(separator: "\n")
    }

    static func emptyHistory(_ overrides: KeyOverrides) -> AppState {
        var state = Demo.state(.history, history: Demo.history([], total: 0))
        state.keyOverrides = overrides
        return state
    }

    @Test func anEmptyHistoryNamesTheCreateKeyInForce() {
        let standard = Self.text(of: Screen.render(Self.emptyHistory(.none), options: Demo.options))
        #expect(standard.contains("press 2 or + to capture"))
        let rebound = Self.text(of: Screen.render(Self.emptyHistory(KeyOverrides(["create": [.character("c")]])), options: Demo.options))
        #expect(rebound.contains("press c to capture"))
        #expect(!rebound.contains("2 or +"))
        let unbound = Self.text(of: Screen.render(Self.emptyHistory(KeyOverrides(["create": []])), options: Demo.options))
        #expect(unbound.contains("Nothing captured yet."))
        #expect(!unbound.contains("press"))
    }

    static func minimized(_ overrides: KeyOverrides) -> AppState {
        var state = Demo.state(.history, history: Demo.history(cursor: 30, scrollOffset: 20))
        state.isTabBarMinimized = true
        state.keyOverrides = overrides
        return state
    }

    @Test func theMinimizedBarNamesTheTabKeysInForce() {
        let standard = Self.text(of: Screen.render(Self.minimized(.none), options: Demo.options))
        #expect(standard.contains("1-4: tabs"))
        let overrides = KeyOverrides([
            "tab_inbox": [.character("i")], "create": [.character("c")], "tab_history": [.character("H")], "tab_settings": [.character("S")],
            "move_up": [.character("w")],
        ])
        let rebound = Self.text(of: Screen.render(Self.minimized(overrides), options: Demo.options))
        #expect(rebound.contains("i/c/H/S: tabs"))
        #expect(!rebound.contains("1-4"))
        #expect(!rebound.contains("↑ or"))
    }

    @Test func aSheetOverTheMinimizedBarLeavesOutKeysThatDoNothingThere() {
        var state = Self.minimized(.none)
        state.presentation = .sheet(.help(HelpState()))
        let text = Self.text(of: Screen.render(state, options: Demo.options))
        #expect(!text.contains(": tabs"))
        #expect(text.contains("[History]"))
    }

    // MARK: - Screen-reader mode's sentences

    @Test func theHelpAnnouncementNamesItsKeysInForce() {
        var state = Demo.state(.inbox, rows: 23, presentation: .sheet(.help(HelpState())))
        let context = RenderContext(options: Self.screenReader)
        #expect(Announcement.text(for: state, context: context).hasSuffix("Up and Down scroll, Esc closes."))
        state.keyOverrides = KeyOverrides(["move_up": [.character("w")], "move_down": [.character("s")], "help_close": [.character("x")]])
        #expect(Announcement.text(for: state, context: context).hasSuffix("w and s scroll, x closes."))
    }

    @Test func aChangedSettingIsAnnouncedWithItsNewValue() {
        var state = Demo.state(.settings, rows: 23)
        for _ in 0..<SettingsRow.tabBarPosition.rawValue { _ = state.send(.listMoved(.down)) }
        let context = RenderContext(options: Self.screenReader)
        #expect(Announcement.text(for: state, context: context) == "Settings tab; changes apply at once.")
        _ = state.send(.settings(.highlightedValueStepped(forward: true)))
        let said = Announcement.text(for: state, context: context)
        #expect(said == "Tab bar position: \(state.settings.tabBarPosition.title).")
        _ = state.send(.settings(.highlightedValueStepped(forward: true)))
        #expect(Announcement.text(for: state, context: context) != said, "each change is said again, with the value it has now")
        _ = state.send(.settings(.rowCycled(.captureGating, forward: true)))
        #expect(Announcement.text(for: state, context: context) == "Require an Inbox request to capture: \(state.settings.captureGating ? "on" : "off").")
    }

    @Test func noMiddleDotInAnyRowInScreenReaderMode() {
        var rows = Demo.historyRows
        rows[0].product = Product(name: "Nutella", brand: "Ferrero", quantity: "400 g")
        rows[1] = HistoryRow(
            id: rows[1].id, kind: .product, barcode: nil, note: nil, requestID: nil, requestTitle: nil, createdAt: rows[1].createdAt,
            photoCount: 2, firstPhotoName: "a·b.png")
        let state = Demo.state(.history, rows: 23, history: Demo.history(rows))
        let normal = Self.text(of: Screen.render(state, options: Demo.options))
        #expect(normal.contains("Nutella · Ferrero"), "the normal screen keeps its separators")
        let frame = Screen.render(state, options: Self.screenReader)
        let text = Self.text(of: frame)
        #expect(!text.contains("\u{00B7}"))
        #expect(text.contains("Nutella, Ferrero, 4006381333931"))
        #expect(text.contains("No barcode, a,b.png"))
    }
}
