import Foundation
import TabShell

/// A paragraph of safe text in one style, optionally indented: the unit of prose screens
/// (empty states, explanations) that `Canvas.putBlocks` stacks.
struct TextBlock {
    var text: String
    var style: CellStyle = .normal
    var indent = 0

    init(_ text: String, _ style: CellStyle = .normal, indent: Int = 0) {
        self.text = text
        self.style = style
        self.indent = indent
    }
}
