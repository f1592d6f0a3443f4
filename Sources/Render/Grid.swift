import Foundation

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

/// One screen cell. A double-width character occupies its cell and marks the next one as a
/// continuation, so the grid is always exactly `width` cells wide per row.
public struct Cell: Equatable, Sendable, Hashable {
    /// The grapheme drawn here; empty for the right half of a wide character.
    public var text: String
    public var style: CellStyle

    public init(_ text: String = " ", style: CellStyle = .normal) {
        self.text = text
        self.style = style
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
