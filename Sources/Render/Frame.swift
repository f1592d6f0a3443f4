import Foundation
import TabShell

/// Where the terminal cursor should be shown (text fields), in grid coordinates.
public struct CursorPosition: Equatable, Sendable {
    public var row: Int
    public var column: Int
    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }
}

/// A clickable area of one row and the action a click there sends.
public struct HitRegion: Equatable, Sendable {
    public var row: Int
    public var columns: Range<Int>
    public var action: AppAction

    public init(row: Int, columns: Range<Int>, action: AppAction) {
        self.row = row
        self.columns = columns
        self.action = action
    }
}

/// A rendered screen: the cells, the text cursor if any, and the clickable regions.
public struct Frame: Equatable, Sendable {
    public var grid: Grid
    public var cursor: CursorPosition?
    public var hitRegions: [HitRegion]

    public init(grid: Grid, cursor: CursorPosition? = nil, hitRegions: [HitRegion] = []) {
        self.grid = grid
        self.cursor = cursor
        self.hitRegions = hitRegions
    }

    /// The action of the region under a click, if any (the last-drawn region wins).
    public func action(atRow row: Int, column: Int) -> AppAction? {
        hitRegions.last { $0.row == row && $0.columns.contains(column) }?.action
    }
}

/// What the terminal can show, decided once at start (and when Settings change colour).
public struct RenderOptions: Equatable, Sendable {
    /// Unicode box drawing and symbols; false draws ASCII only (non-UTF-8 locale).
    public var unicode: Bool
    /// Whether the terminal layer will use colour; screens still mark selection without it.
    public var color: Bool
    /// "Now", for ages such as "5m ago"; injected so rendering stays pure.
    public var now: Date

    public init(unicode: Bool = true, color: Bool = true, now: Date) {
        self.unicode = unicode
        self.color = color
        self.now = now
    }
}
