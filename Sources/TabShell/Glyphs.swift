import Foundation

/// The symbols the chrome is drawn with: Unicode for UTF-8 terminals, plain ASCII otherwise.
/// Data is never drawn with these; only rules, boxes, marks and punctuation that screens add.
public struct Glyphs: Sendable, Equatable {
    public var horizontal: String
    public var vertical: String
    public var topLeft: String
    public var topRight: String
    public var bottomLeft: String
    public var bottomRight: String
    /// Marks the highlighted row of a list.
    public var pointer: String
    /// Marks the Inbox request that Create captures for.
    public var chosen: String
    public var pending: String
    public var done: String
    /// Before the text of an error, so errors stand out without colour.
    public var error: String
    /// Before the text of a success or a toast.
    public var success: String
    public var ellipsis: String
    public var dash: String
    public var separator: String
    public var breadcrumb: String
    public var previousValue: String
    public var nextValue: String
    /// At the right end of a list's first row: more rows lie above it.
    public var moreAbove = "▲"
    /// At the right end of a list's last row: more rows lie below it.
    public var moreBelow = "▼"

    public static let unicode = Glyphs(
        horizontal: "─", vertical: "│", topLeft: "┌", topRight: "┐", bottomLeft: "└", bottomRight: "┘",
        pointer: "›", chosen: "▶", pending: "●", done: "✓", error: "✗", success: "✓",
        ellipsis: "…", dash: "—", separator: " · ", breadcrumb: " › ",
        previousValue: "‹", nextValue: "›"
    )

    public static let ascii = Glyphs(
        horizontal: "-", vertical: "|", topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+",
        pointer: ">", chosen: "@", pending: "*", done: "+", error: "!", success: "OK",
        ellipsis: "...", dash: "-", separator: " - ", breadcrumb: " > ",
        previousValue: "<", nextValue: ">", moreAbove: "^", moreBelow: "v"
    )

    /// The chrome in screen-reader mode: borders and rules are spaces, marks are words, the
    /// selection pointer is a plain `>`, so a reader speaks (and a braille display shows)
    /// only what means something.
    public static let screenReader = Glyphs(
        horizontal: " ", vertical: " ", topLeft: " ", topRight: " ", bottomLeft: " ", bottomRight: " ",
        pointer: ">", chosen: "chosen", pending: "pending", done: "done", error: "Error:", success: "OK:",
        ellipsis: "...", dash: "-", separator: ", ", breadcrumb: " / ",
        previousValue: "<", nextValue: ">", moreAbove: "more above", moreBelow: "more below"
    )
}
