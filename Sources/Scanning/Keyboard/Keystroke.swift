/// One key as the terminal delivered it, with when it came. Times are from any fixed origin
/// (the app's clock); only the gaps between keystrokes matter.
public struct Keystroke: Equatable, Hashable, Sendable {
    public var character: Character
    public var time: Duration

    public init(_ character: Character, at time: Duration) {
        self.character = character
        self.time = time
    }

    public init(_ character: Character, nanoseconds: UInt64) {
        self.init(character, at: .nanoseconds(Int64(clamping: nanoseconds)))
    }

    /// Enter (CR, LF or CR LF) or Tab: what scanners end a scan with.
    public var isSuffix: Bool { ScanSuffix(character) != ScanSuffix.none }

    /// Backspace or Delete: people correct themselves, scanners do not.
    var isEditing: Bool { character == "\u{7F}" || character == "\u{08}" }
}

/// What a scanner sends after the code.
public enum ScanSuffix: String, Equatable, Hashable, Codable, Sendable {
    case enter, tab, none

    /// The suffix a character is, `.none` for any other character.
    public init(_ character: Character) {
        switch character {
        case "\r", "\n", "\r\n": self = .enter
        case "\t": self = .tab
        default: self = .none
        }
    }

    public var title: String {
        switch self {
        case .enter: "Enter"
        case .tab: "Tab"
        case .none: "none"
        }
    }
}
