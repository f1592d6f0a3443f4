import Foundation

/// A key press as the models see it: already decoded from the terminal, free of curses codes.
public indirect enum Key: Hashable, Sendable {
    /// A printable character (including space).
    case character(Character)
    /// Ctrl plus a letter, lower-cased: `.control("d")` is Ctrl-D.
    case control(Character)
    case enter, escape, tab, backTab, backspace, delete, insert
    case up, down, left, right, home, end, pageUp, pageDown
    case function(Int)
    /// Alt (Meta) plus a printable character: `ESC` followed by it. Never a command unless a
    /// binding names it.
    case alt(Character)
    /// A named key held with modifiers (Ctrl-↑, Shift-F5): kept apart from the plain key so a
    /// modified arrow can never move a list by accident.
    case modified(Key, KeyModifiers)
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
        case .insert: "Ins"
        case .up: unicode ? "↑" : "Up"
        case .down: unicode ? "↓" : "Down"
        case .left: unicode ? "←" : "Left"
        case .right: unicode ? "→" : "Right"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case let .function(n): "F\(n)"
        case let .alt(c): "Alt-\(c == " " ? "Space" : String(c))"
        case let .modified(key, modifiers): modifiers.label + key.label(unicode: unicode)
        case .paste: "Paste"
        }
    }
}

/// Modifier keys held with a named key, as terminals report them (xterm's parameter minus one).
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let shift = KeyModifiers(rawValue: 1)
    public static let alt = KeyModifiers(rawValue: 2)
    public static let control = KeyModifiers(rawValue: 4)
    public static let meta = KeyModifiers(rawValue: 8)

    /// "Ctrl-Shift-", in the order people say them.
    public var label: String {
        var text = ""
        if contains(.control) { text += "Ctrl-" }
        if contains(.alt) { text += "Alt-" }
        if contains(.meta) { text += "Meta-" }
        if contains(.shift) { text += "Shift-" }
        return text
    }
}
