import Domain
import Foundation
import TabShell

/// Where the terminal cursor should be shown, in grid coordinates: a text field's insertion
/// point; in screen-reader mode also whatever has focus (a list's selected row, a dialog's
/// focused button), so a reader that follows the cursor reads it.
public struct CursorPosition: Equatable, Sendable {
    public var row: Int
    public var column: Int
}

/// A clickable area of one row and the action a click there sends.
public struct HitRegion: Equatable, Sendable {
    public var row: Int
    public var columns: Range<Int>
    public var action: AppAction
}

/// A graphics protocol's picture on a frame: the terminal layer draws it after the cells, with
/// its top-left corner at (`row`, `column`), over `size` cells the grid keeps blank for it.
public struct FrameImage: Equatable, Sendable {
    public var row: Int
    public var column: Int
    public var size: CellBox
    public var picture: PreviewGraphics

    /// The screen rows it covers.
    public var rows: Range<Int> { row..<(row + size.rows) }
}

/// A rendered screen: the cells, the text cursor if any, the clickable regions, and the
/// pictures a graphics protocol draws over it.
public struct Frame: Equatable, Sendable {
    public var grid: Grid
    public var cursor: CursorPosition?
    public var hitRegions: [HitRegion] = []
    /// Only pictures whose every cell is on screen and still blank for them: one that a sheet
    /// or an alert covers even in part, or that scrolled partly out of view, is left out.
    public var images: [FrameImage] = []

    /// The rows of a list this frame shows (absolute indices; each is a click target, and one a
    /// status sentence wrapped over it is not), nil when no list row is on screen. What a
    /// presenter's watchers are sent of the list.
    public var listRowsShown: Range<Int>? {
        let rows = hitRegions.compactMap { region -> Int? in
            if case .rowClicked(let index) = region.action { return index }
            return nil
        }
        guard let first = rows.min(), let last = rows.max() else { return nil }
        return first..<(last + 1)
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
    /// Screen-reader mode (`--screen-reader`): the cursor is always shown on what has focus,
    /// the last row is the announcement line, and the chrome is drawn in words and spaces
    /// rather than box drawing and symbols (docs/accessibility.md).
    public var screenReader: Bool

    public init(unicode: Bool = true, color: Bool = true, now: Date, screenReader: Bool = false) {
        self.unicode = unicode
        self.color = color
        self.now = now
        self.screenReader = screenReader
    }

    /// Rows of the terminal the app's screens do not get: the announcement line's, in
    /// screen-reader mode.
    public var announcementRows: Int { screenReader ? 1 : 0 }
}
