import CaptureMode
import Foundation
import Render
import TabShell
import Testing

/// A watcher draws the presenter's state at its own size: what it draws is what the presenter's
/// own state would draw at that size (issue #27).
@Suite struct PresentedScreenTests {
    static let now = Date(timeIntervalSince1970: 1_741_953_600)
    static let options = RenderOptions(unicode: true, color: false, now: now)

    static let requests = (1...30).map {
        InboxRequest(
            id: Int64($0), title: "Request number \($0) for bay \($0 % 7)", body: "Body \($0)", kind: .barcode, status: .pending,
            createdAt: now.addingTimeInterval(Double(-$0 * 600)))
    }

    /// A presenter's state after `keys`, with the Inbox loaded.
    static func presenter(_ keys: [Key], size: ScreenSize = ScreenSize(rows: 24, columns: 80)) -> AppState {
        var state = AppState(size: size)
        _ = state.send(.inbox(.loaded(InboxSnapshot(requests: requests, pendingCount: requests.count))))
        for key in keys {
            if let action = KeyMap.action(for: key, in: state) { _ = state.send(action) }
        }
        return state
    }

    /// The watcher's drawing at `size` of `state` sent over the wire.
    static func watcherText(of state: AppState, size: ScreenSize) throws -> String {
        let bytes = try JSONEncoder().encode(state.presentedScreen)
        let screen = try JSONDecoder().decode(PresentedScreen.self, from: bytes)
        return Screen.render(AppState.watching(screen, size: size, environment: DisplayEnvironment()), options: options).grid.text
    }

    static func ownText(of state: AppState, size: ScreenSize) -> String {
        var resized = state
        _ = resized.send(.resized(size))
        return Screen.render(resized, options: options).grid.text
    }

    @Test(arguments: [ScreenSize(rows: 12, columns: 40), ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 48, columns: 160)])
    func theWatcherDrawsWhatThePresentersStateDrawsAtTheWatchersSize(size: ScreenSize) throws {
        let journeys: [[Key]] = [
            [.down, .down, .down],
            [.character("/"), .character("b"), .character("a"), .character("y")],
            [.character("?")],
        ]
        for keys in journeys {
            let state = Self.presenter(keys)
            let watched = try Self.watcherText(of: state, size: size)
            #expect(watched == Self.ownText(of: state, size: size), "after \(keys) at \(size.columns)x\(size.rows)")
        }
    }

    @Test func typedTextAndTheStatusReachTheWatcher() throws {
        var state = Self.presenter([.character("/"), .character("p"), .character("a"), .character("l")])
        state.status = StatusMessage("Copied the code")
        let text = try Self.watcherText(of: state, size: ScreenSize(rows: 12, columns: 40))
        #expect(text.contains("pal"))
        #expect(text.contains("Copied the code"))
    }

    @Test func oversizedListsAndTextsAreCutOnReceipt() {
        var state = Self.presenter([])
        var screen = state.presentedScreen
        screen.inbox = Array(repeating: screen.inbox[0], count: PresentedScreen.maximumRows * 3)
        screen.inbox[0].title = String(repeating: "x", count: 100_000)
        screen.historyStart = -5
        screen.historyTotal = -9
        screen.status = String(repeating: "\u{1b}[31m", count: 10_000)
        let bounded = screen.bounded()
        #expect(bounded.inbox.count == PresentedScreen.maximumRows)
        #expect(bounded.inbox[0].title.count == PresentedScreen.maximumText)
        #expect(bounded.historyStart == 0 && bounded.historyTotal >= 0)
        #expect((bounded.status?.count ?? 0) <= PresentedScreen.maximumText)
        // And drawn, no escape reaches the grid.
        state = AppState.watching(screen, size: ScreenSize(rows: 12, columns: 40), environment: DisplayEnvironment())
        #expect(!Screen.render(state, options: Self.options).grid.text.contains("\u{1b}"))
    }
}
