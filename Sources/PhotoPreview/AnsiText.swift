/// A cell grid as text with SGR colour codes, the way a program outside curses (such as
/// `tabshell doctor` printing a sample) would write it. Colours are sent only when they change;
/// each row ends with a reset and a newline.
public enum AnsiText {
    public static func render(_ grid: CellGrid, colors: ColorDepth) -> String {
        var output = ""
        for row in 0..<grid.size.rows {
            var current: (CellColor?, CellColor?)?
            for column in 0..<grid.size.columns {
                let cell = grid[row, column]
                if colors != .monochrome, current.map({ $0.0 != cell.foreground || $0.1 != cell.background }) ?? true {
                    output += sgr(foreground: cell.foreground, background: cell.background, colors: colors)
                    current = (cell.foreground, cell.background)
                }
                output.unicodeScalars.append(cell.character)
            }
            if colors != .monochrome { output += "\u{1B}[0m" }
            output += "\n"
        }
        return output
    }

    private static func sgr(foreground: CellColor?, background: CellColor?, colors: ColorDepth) -> String {
        var parts = ["0"]
        if let foreground { parts.append(code(foreground, layer: 3, colors: colors)) }
        if let background { parts.append(code(background, layer: 4, colors: colors)) }
        return "\u{1B}[" + parts.joined(separator: ";") + "m"
    }

    /// `layer` 3 is the foreground, 4 the background.
    private static func code(_ color: CellColor, layer: Int, colors: ColorDepth) -> String {
        switch colors {
        case .truecolor: "\(layer)8;2;\(color.red);\(color.green);\(color.blue)"
        case .palette256: "\(layer)8;5;\(color.index256)"
        case .palette16:
            color.index256 < 8 ? "\(layer)\(color.index256)" : "\(layer == 3 ? 9 : 10)\(color.index256 & 7)"
        case .monochrome: ""
        }
    }
}
