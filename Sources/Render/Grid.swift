import Domain
import Foundation
import TabShell

/// What kind of thing a cell draws. Screens say *what* they draw; the terminal layer alone maps
/// kinds to colours and attributes (with a monochrome fallback for each).
public enum CellStyle: UInt8, Sendable, Hashable, CaseIterable {
    case normal
    case heading
    case dim
    case tab
    case tabSelected
    case tabAction
    case badge
    case hint
    case hintKey
    case selectedRow
    case button
    case error
    case success
    case toast
    case border
    case field
    case alert
}

/// The colours of a cell of a photo preview, which carry the picture itself rather than a kind
/// of text: drawn as they are (with colour pairs the terminal layer allocates on demand), not
/// through `CellStyle`'s table. Nil colour: the terminal's own.
public struct CellPaint: Equatable, Sendable, Hashable {
    public var foreground: PreviewColor?
    public var background: PreviewColor?

    public init(foreground: PreviewColor?, background: PreviewColor?) {
        self.foreground = foreground
        self.background = background
    }

    /// A blank cell kept for a picture that a graphics protocol draws over it (`Frame.images`).
    /// Preview cells with neither colour carry no paint at all, so this marks only such cells.
    public static let reservedForImage = CellPaint(foreground: nil, background: nil)
}

/// One screen cell. A double-width character occupies its cell and marks the next one as a
/// continuation, so the grid is always exactly `width` cells wide per row.
public struct Cell: Equatable, Sendable, Hashable {
    /// The grapheme drawn here; empty for the right half of a wide character.
    public var text: String
    public var style: CellStyle
    /// A photo preview's own colours; nil for every other cell.
    public var paint: CellPaint?

    public init(_ text: String = " ", style: CellStyle = .normal, paint: CellPaint? = nil) {
        self.text = text
        self.style = style
        self.paint = paint
    }

    public var isContinuation: Bool { text.isEmpty }
    public static let blank = Cell()
}

/// A rectangle of cells: what a screen renders to and what snapshot tests compare.
public struct Grid: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(row: Int, column: Int) -> Cell {
        get { cells[row * width + column] }
        set { cells[row * width + column] = newValue }
    }

    /// True when `row` holds the same cells here and in `other` (same width): lets the terminal
    /// skip an unchanged row with one pass over contiguous storage, no per-cell copies.
    public func row(_ row: Int, equals other: Grid) -> Bool {
        guard width == other.width, (0..<height).contains(row), row < other.height else { return false }
        let range = row * width..<(row + 1) * width
        return cells.withUnsafeBufferPointer { mine in
            other.cells.withUnsafeBufferPointer { theirs in
                for index in range
                where mine[index].style != theirs[index].style || mine[index].paint != theirs[index].paint
                    || mine[index].text != theirs[index].text
                {
                    return false
                }
                return true
            }
        }
    }

    public func contains(row: Int, column: Int) -> Bool {
        row >= 0 && row < height && column >= 0 && column < width
    }

    /// The text of one row, continuation cells skipped.
    public func text(ofRow row: Int) -> String {
        (0..<width).map { self[row, $0].text }.joined()
    }

    /// All rows as text, trailing spaces trimmed: what snapshot tests and the e2e harness read.
    public var text: String {
        (0..<height).map { row in
            var line = text(ofRow: row)
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
