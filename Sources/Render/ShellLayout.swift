import Domain
import Foundation
import TabShell

/// Where the parts of the tab shell go. With the bar at the bottom (iOS): heading, rule,
/// content, hints, rule, bar; with the bar on top: bar, rule, heading, rule, content, hints.
/// The content height is `Layout.contentRows`, the budget the reducer scrolls lists by.
struct ShellLayout {
    /// The heading row and the rule under it.
    let heading: Rect
    let content: Rect
    let hints: Rect
    let tabBarRule: Rect
    let tabBar: Rect

    init(size: ScreenSize, tabBarPosition: TabBarPosition, compactTabBar: Bool = false) {
        let bounds = Rect(row: 0, column: 0, width: size.columns, height: size.rows)
        // The rows come from the model's layout, so the lists it scrolls and the rows drawn agree.
        let layout = Layout(size: size, compactTabBar: compactTabBar)
        let barOnTop = tabBarPosition == .top
        // A compact bar is one line with no rule: the content gets the rule's row.
        let rows = layout.contentArea(barOnTop: barOnTop)
        let hintRow = rows.upperBound
        heading = Rect(row: layout.headingRow(barOnTop: barOnTop), column: 0, width: size.columns, height: Layout.headingRows)
        content = Rect(row: rows.lowerBound, column: 1, width: size.columns - 2, height: rows.count)
        hints = bounds.line(hintRow).inset(left: 1, right: 1)
        tabBarRule = compactTabBar ? Rect(row: barOnTop ? 0 : hintRow + 1, column: 0, width: 0, height: 0) : bounds.line(barOnTop ? 1 : hintRow + 1)
        tabBar = bounds.line(barOnTop ? 0 : hintRow + layout.tabBarRows)
    }

    init(state: AppState) {
        self.init(size: state.size, tabBarPosition: state.settings.tabBarPosition, compactTabBar: state.isTabBarMinimized)
    }

    /// Where a sheet goes: from the heading's rule down to the content's last row, so the
    /// heading, the hints and the tab bar stay visible around it.
    func sheet(height: Int, maximumWidth: Int) -> Rect {
        let width = min(content.width, maximumWidth)
        return Rect(
            row: heading.row + 1, column: content.column + (content.width - width) / 2,
            width: width, height: min(height, content.bottom - heading.row - 1)
        )
    }

    /// Draws the frame every sheet shares (titled border, the tab underneath masked and deaf to
    /// clicks inside it) and returns its box.
    func drawSheetFrame(title: String, layout: Layout, on canvas: inout Canvas) -> Rect {
        let box = sheet(height: layout.helpRows + 2, maximumWidth: 76)
        canvas.clearSides(of: box)
        canvas.removeHitRegions(under: box)
        canvas.forgetAnchors()
        canvas.box(box, title: title)
        return box
    }
}
