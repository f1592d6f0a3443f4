import Foundation
import TabShell

/// Says that the database server cannot be reached, for as long as it cannot, in the heading of
/// every screen: the shell's (every tab, and under its sheets and questions) on the right of the
/// title row, capture's in the rule under its title bar, the photo viewer's (it has no heading)
/// on the right of its facts' line. So rows read before the server went away never pass for
/// current.
///
/// While the session's store is still opening (a server slow to answer at start), the same place
/// says "Connecting to …", dim rather than as an error.
struct UnreachableDatabaseNotice {
    /// The store's sentence ("Cannot reach PostgreSQL at db:5432: the connection was lost."), or
    /// the store's name while it is still connecting.
    let sentence: String
    let context: RenderContext
    var connecting = false

    /// The notice `state` calls for: the server's sentence, else "Connecting to …" while the
    /// store opens, else none.
    static func of(_ state: AppState, context: RenderContext) -> UnreachableDatabaseNotice? {
        switch state.storeReach {
        case .answering: nil
        case let .connecting(name): UnreachableDatabaseNotice(sentence: name, context: context, connecting: true)
        case let .unreachable(sentence): UnreachableDatabaseNotice(sentence: sentence, context: context)
        }
    }

    /// How the notice is drawn: dim while connecting, else as an error.
    var style: CellStyle { connecting ? .dim : .error }

    /// The forms of the notice, longest first: the sentence, then shorter words for narrow screens.
    var forms: [String] {
        let ellipsis = context.glyphs.ellipsis
        if connecting { return ["Connecting to \(context.line(sentence))\(ellipsis)", "Connecting\(ellipsis)"] }
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
        canvas.put(text, row: rule.row, column: rule.column + 2, width: room, style: style)
    }
}
