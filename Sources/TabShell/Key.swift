import Foundation

/// A key press as the models see it: already decoded from the terminal, free of curses codes.
public enum Key: Hashable, Sendable {
    /// A printable character (including space).
    case character(Character)
    /// Ctrl plus a letter, lower-cased: `.control("d")` is Ctrl-D.
    case control(Character)
    case enter, escape, tab, backTab, backspace, delete
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)
    /// A bracketed paste, delivered whole.
    case paste(String)

    /// How the key is written in hints and help: "Esc", "Ctrl-D", "↑".
    public func label(unicode: Bool = true) -> String {
        switch self {
        case let .character(c): c == " " ? "Space" : String(c)
        case let .control(c): "Ctrl-\(c.uppercased())"
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .backspace: "Bksp"
        case .delete: "Del"
        case .up: unicode ? "↑" : "Up"
        case .down: unicode ? "↓" : "Down"
        case .left: unicode ? "←" : "Left"
        case .right: unicode ? "→" : "Right"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case let .function(n): "F\(n)"
        case .paste: "Paste"
        }
    }
}
