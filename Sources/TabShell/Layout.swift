import Foundation

/// The terminal size in cells.
public struct ScreenSize: Equatable, Sendable, Hashable {
    public var rows: Int
    public var columns: Int

    public init(rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
    }
}

/// The row budget of the tab shell, shared by the reducer (to scroll lists) and the renderer
/// (to draw them), so both agree on how many list rows fit.
public struct Layout: Equatable, Sendable {
    /// Below this size the app shows a "terminal too small" notice instead of the shell.
    public static let minimumSize = ScreenSize(rows: 8, columns: 24)

    /// The heading: its title row and the rule under it.
    public static let headingRows = 2
    /// The hint line under the content.
    public static let hintRows = 1
    /// The tab bar and its rule; a compact bar is its one line.
    public static let tabBarRows = 2

    public let size: ScreenSize
    /// The tab bar is minimized to one compact line (no rule): the list gets its row.
    public let compactTabBar: Bool
    /// The box of a photo thumbnail beside its name, when previews are on; nil keeps screens
    /// as text only (previews off, or no terminal that can show them).
    public let thumbnail: CellBox?

    public init(size: ScreenSize, compactTabBar: Bool = false, thumbnail: CellBox? = nil) {
        self.size = size
        self.compactTabBar = compactTabBar
        self.thumbnail = thumbnail
    }

    /// Rows of the tab bar in this layout (one when compact, with no rule).
    public var tabBarRows: Int { compactTabBar ? 1 : Self.tabBarRows }

    /// Rows outside the content area for this layout: heading, its rule, hint line, tab-bar
    /// rule, tab bar. The renderer places each of them from these same numbers (`ShellLayout`).
    public var chromeRows: Int { Self.headingRows + Self.hintRows + tabBarRows }

    /// The heading's first row: the top with the bar at the bottom (iOS), else under the bar.
    public func headingRow(barOnTop: Bool) -> Int { barOnTop ? tabBarRows : 0 }

    /// The screen rows of the content, between the heading's rule and the hint line: where a
    /// tab's list or a record's detail is drawn, and where the wheel scrolls it.
    public func contentArea(barOnTop: Bool) -> Range<Int> {
        let first = headingRow(barOnTop: barOnTop) + Self.headingRows
        return first..<(first + contentRows)
    }

    public var isTooSmall: Bool {
        size.rows < Self.minimumSize.rows || size.columns < Self.minimumSize.columns
    }

    /// Rows available to a content tab's body.
    public var contentRows: Int { max(1, size.rows - chromeRows) }

    /// Rows of the Inbox list; the rest of the content area previews the highlighted request.
    public var inboxListRows: Int { contentRows > 8 ? contentRows - 3 : contentRows }

    /// Rows of the History list (one record per row, under a column header).
    public var historyListRows: Int { max(1, contentRows - 1) }

    /// Rows of the Settings list.
    public var settingsListRows: Int { contentRows }

    /// Rows of keys inside capture's list of keys (`?`/F1): the screen less the title bar, the
    /// hint line and the list's frame (the renderer frames this many).
    public var captureKeysRows: Int { max(1, size.rows - 4) }

    /// Rows inside the help sheet.
    public var helpRows: Int { max(1, size.rows - 6) }

    /// Rows of search results: the search sheet is the help sheet's size, less its query row
    /// and the line under it that says how many matched.
    public var searchResultRows: Int { max(1, helpRows - 2) }
}
