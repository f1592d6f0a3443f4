import Foundation

/// The boxes previews are made for, from the screen size alone, so the model asks for exactly
/// what Render draws and a message appearing on screen never asks for a new preview.
public enum PreviewBoxes {
    /// A thumbnail beside a photo's name (capture, review, a record's detail): rows by the
    /// screen's height, three columns per row (a 4:3 photo in cells about twice as tall as wide).
    public static func thumbnail(for size: ScreenSize) -> CellBox {
        let rows: Int
        switch size.rows {
        case 36...: rows = 6
        case 20...: rows = 4
        case 14...: rows = 3
        default: rows = 2
        }
        let columns = min(rows * 3, max(1, size.columns / 4))
        return CellBox(columns: columns, rows: rows)
    }

    /// The viewer's picture: the whole screen but its facts line and its hint line.
    public static func viewer(for size: ScreenSize) -> CellBox {
        CellBox(columns: max(1, size.columns), rows: max(1, size.rows - 2))
    }
}
