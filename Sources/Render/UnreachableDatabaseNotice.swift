import Foundation
import TabShell

/// Says that the database server cannot be reached, for as long as it cannot, in the heading of
/// every screen: the shell's (every tab, and under its sheets and questions) on the right of the
/// title row, capture's in the rule under its title bar, the photo viewer's (it has no heading)
/// on the right of its facts' line. So rows read before the server went away never pass for
/// current.
struct UnreachableDatabaseNotice {
    /// The store's sentence ("Cannot reach PostgreSQL at db:5432: the connection was lost.").
    let sentence: String
    let context: RenderContext

    /// The forms of the notice, longest first: the sentence, then shorter words for narrow screens.
    var forms: [String] {
        let mark = context.glyphs.error
        return ["\(mark) \(context.line(sentence))", "\(mark) Database unreachable", "\(mark) DB unreachable"]
    }

    /// The longest form that fits in `width` cells, else the shortest.
    func text(fitting width: Int) -> String {
        forms.first { TextWidth.of($0) <= width } ?? forms[forms.count - 1]
    }

    /// Draws the notice into a rule (capture's, under its title bar), left of centre, the rule's
    /// ends kept.
    func draw(inRule rule: Rect, on canvas: inout Canvas) {
        let room = rule.width - 4
        guard room > 0 else { return }
        let text = " \(self.text(fitting: room - 2)) "
        canvas.put(text, row: rule.row, column: rule.column + 2, width: room, style: .error)
    }
}
