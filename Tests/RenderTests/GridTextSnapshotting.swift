import Render
import SnapshotTesting

extension Snapshotting where Value == Frame, Format == String {
    /// The frame as a reviewer reads it: the grid's text (trailing spaces trimmed), the text
    /// cursor, then one line of style codes per row that is not all `.normal`, so a style
    /// regression fails a snapshot as surely as a text one.
    static var gridText: Snapshotting<Frame, String> {
        Snapshotting<String, String>.lines.pullback(render)
    }

    private static func render(_ frame: Frame) -> String {
        let grid = frame.grid
        var out = "\(grid.width)x\(grid.height)"
        out += frame.cursor.map { " cursor row \($0.row) column \($0.column)" } ?? " no cursor"
        out += "\n" + grid.text + "\n--- styles: " + StyleCode.legend + "\n"
        for row in 0..<grid.height {
            var codes = String((0..<grid.width).map { StyleCode.code(for: grid[row, $0].style) })
            while codes.hasSuffix(".") { codes.removeLast() }
            if !codes.isEmpty { out += (row < 10 ? " " : "") + "\(row) \(codes)\n" }
        }
        // Photo previews' own colours, only when a frame has any: "#" a cell with a foreground
        // and a background, "f" a foreground only, "b" a background only.
        let painted = (0..<grid.height).filter { row in (0..<grid.width).contains { grid[row, $0].paint != nil } }
        guard !painted.isEmpty else { return out }
        out += "--- preview colours: # foreground and background, f foreground, b background\n"
        for row in painted {
            var marks = String(
                (0..<grid.width).map { column -> Character in
                    switch (grid[row, column].paint?.foreground, grid[row, column].paint?.background) {
                    case (_?, _?): "#"
                    case (_?, nil): "f"
                    case (nil, _?): "b"
                    case (nil, nil): "."
                    }
                })
            while marks.hasSuffix(".") { marks.removeLast() }
            out += (row < 10 ? " " : "") + "\(row) \(marks)\n"
        }
        return out
    }
}

/// One character per `CellStyle`, for the style block of grid snapshots.
enum StyleCode {
    static func code(for style: CellStyle) -> Character {
        switch style {
        case .normal: "."
        case .heading: "H"
        case .dim: "d"
        case .tab: "t"
        case .tabSelected: "T"
        case .tabAction: "A"
        case .badge: "b"
        case .hint: "h"
        case .hintKey: "k"
        case .selectedRow: "S"
        case .button: "B"
        case .error: "E"
        case .success: "s"
        case .toast: "o"
        case .border: "-"
        case .field: "f"
        case .alert: "a"
        }
    }

    static let legend = CellStyle.allCases.map { "\(code(for: $0))=\($0)" }.joined(separator: " ")
}
