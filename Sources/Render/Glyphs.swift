import Foundation

/// The symbols the chrome is drawn with: Unicode for UTF-8 terminals, plain ASCII otherwise.
/// Data is never drawn with these; only rules, boxes, marks and punctuation that screens add.
struct Glyphs: Sendable, Equatable {
    var horizontal: String
    var vertical: String
    var topLeft: String
    var topRight: String
    var bottomLeft: String
    var bottomRight: String
    /// Marks the highlighted row of a list.
    var pointer: String
    /// Marks the Inbox request that Create captures for.
    var chosen: String
    var pending: String
    var done: String
    /// Before the text of an error, so errors stand out without colour.
    var error: String
    /// Before the text of a success or a toast.
    var success: String
    var ellipsis: String
    var dash: String
    var separator: String
    var breadcrumb: String
    var previousValue: String
    var nextValue: String

    static let unicode = Glyphs(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
        pointer: "›", chosen: "▶", pending: "●", done: "✓", error: "✗", success: "✓",
        ellipsis: "…", dash: "—", separator: " · ", breadcrumb: " › ",
        previousValue: "‹", nextValue: "›"
    )

    static let ascii = Glyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        pointer: ">", chosen: "@", pending: "*", done: "+", error: "!", success: "OK",
        ellipsis: "...", dash: "-", separator: " - ", breadcrumb: " > ",
        previousValue: "<", nextValue: ">"
    )

    static func forTerminal(unicode: Bool) -> Glyphs { unicode ? .unicode : .ascii }
}
