import CaptureMode
import Domain
import Render
import SnapshotTesting
import TabShell
import Testing

/// The tab bar minimized while scrolling down (seed 004), next to the full bar, at the bottom
/// and on top, at 80x24 and 40x12, in colour and monochrome ASCII.
@Suite struct MinimizedTabBarSnapshotTests {
    @Test(arguments: [(80, 24), (40, 12)])
    func historyScrolledDown(columns: Int, rows: Int) {
        var state = Demo.state(.history, columns: columns, rows: rows)
        assertSnapshot(of: Screen.render(state, options: Demo.options), as: .gridText, named: "full-\(columns)x\(rows)")
        state.isTabBarMinimized = true
        assertSnapshot(of: Screen.render(state, options: Demo.options), as: .gridText, named: "minimized-\(columns)x\(rows)")
    }

    @Test func onTopAndInMonochromeASCII() {
        var state = Demo.state(.inbox, settings: Settings(tabBarPosition: .top))
        state.isTabBarMinimized = true
        let frame = Screen.render(state, options: Demo.options)
        #expect(frame.find("[Inbox] (3)", inRow: 0) != nil, "the badge set apart from the bracket, as the full bar has it")
        assertSnapshot(of: frame, as: .gridText, named: "top")
        assertSnapshot(of: Screen.render(state, options: RenderOptions(unicode: false, color: false, now: Demo.now)), as: .gridText, named: "ascii-mono")
    }
}
