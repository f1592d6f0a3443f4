/// Collects keystrokes as they arrive and, at each Enter or Tab, hands back the entry with who
/// typed it. The app's runtime feeds it every key of a code being entered in capture (an edit
/// key as a person's), and puts the entry's source on the capture.
public struct KeystrokeClassifier: Equatable, Sendable {
    public var timing: ScannerTiming
    /// Keys since the last Enter/Tab.
    public private(set) var pending: [Keystroke] = []

    public init(timing: ScannerTiming = .standard) {
        self.timing = timing
    }

    /// One finished entry.
    public struct Entry: Equatable, Hashable, Sendable {
        /// The characters typed, without the suffix.
        public var text: String
        public var keystrokes: [Keystroke]
        public var suffix: ScanSuffix
        public var source: InputSource
    }

    /// Records a key; returns the entry when the key is Enter or Tab.
    public mutating func feed(_ keystroke: Keystroke) -> Entry? {
        pending.append(keystroke)
        let suffix = ScanSuffix(keystroke.character)
        guard suffix != .none else { return nil }
        let keystrokes = pending
        pending = []
        return Entry(
            text: String(keystrokes.dropLast().map(\.character)),
            keystrokes: keystrokes,
            suffix: suffix,
            // Who typed the characters: the suffix may be a person's Enter after a scanner that
            // sends none.
            source: timing.source(of: Array(keystrokes.dropLast()))
        )
    }

    /// Forgets the pending keys (the field was cleared, the screen left).
    public mutating func reset() {
        pending = []
    }
}
