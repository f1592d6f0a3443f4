import Domain
import Foundation
import TabShell

/// The characters of a text being edited as they will be drawn: each made safe on its own and
/// measured, so the cursor (an index into the characters) maps onto exact cells even when a
/// character turns into a placeholder or is double width.
struct EditableText {
    struct Glyph {
        var text: String
        var width: Int
    }

    let glyphs: [Glyph]

    init(_ characters: some Sequence<Character>, sanitizer: Sanitizer) {
        glyphs = characters.map { character in
            let text = sanitizer.scrub(String(character))
            return Glyph(text: text, width: TextWidth.of(text))
        }
    }

    /// Cells taken by the glyphs in `range`.
    func width(of range: Range<Int>) -> Int {
        glyphs[range].reduce(0) { $0 + $1.width }
    }

    /// Draws the glyphs in `range` from (`row`, `column`), within `width` cells.
    func draw(_ range: Range<Int>, row: Int, column: Int, width: Int, style: CellStyle, on canvas: inout Canvas) {
        var x = column
        for glyph in glyphs[range] {
            guard x + glyph.width <= column + width else { break }
            canvas.put(glyph.text, row: row, column: x, width: glyph.width, style: style, overflow: .clip)
            x += glyph.width
        }
    }
}
