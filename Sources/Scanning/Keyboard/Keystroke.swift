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
