import Domain
import Foundation
import TabShell
import Testing

@testable import Render

/// The model decides what the wheel moves from the cell under the pointer: its content
/// area must be exactly the rows the renderer draws a tab's body in.
@Suite struct WheelAreaTests {
    @Test(arguments: [(80, 24), (40, 12), (24, 8), (120, 50)], [TabBarPosition.bottom, .top])
    func theModelsContentAreaIsTheRenderersContent(size: (columns: Int, rows: Int), position: TabBarPosition) {
        for minimized in [false, true] {
            var settings = Settings.default
            settings.tabBarPosition = position
            var state = AppState(settings: settings, size: ScreenSize(rows: size.rows, columns: size.columns))
            state.isTabBarMinimized = minimized
            let content = ShellLayout(state: state).content
            #expect(state.contentArea == content.row..<(content.row + content.height), "\(size) \(position) minimized: \(minimized)")
        }
    }
}
