/// The timing that tells a scanner from a person. People type at best about 10 keys a second
/// (100 ms apart); keyboard-wedge scanners send a key every 1–20 ms.
public struct ScannerTiming: Equatable, Hashable, Sendable {
    /// The mean gap between keys at or below which an entry is a scan.
    public var maximumMeanGap: Duration
    /// A single pause longer than this means a person (a scanner does not stop mid-code).
    public var maximumGap: Duration
    /// Entries shorter than this (not counting Enter/Tab) are not judged a scan: one or two
    /// quick keys prove nothing.
    public var minimumCharacters: Int

    public init(maximumMeanGap: Duration = .milliseconds(30), maximumGap: Duration = .milliseconds(200), minimumCharacters: Int = 4) {
        self.maximumMeanGap = maximumMeanGap
        self.maximumGap = maximumGap
        self.minimumCharacters = minimumCharacters
    }

    public static let standard = ScannerTiming()

    /// Who typed these keystrokes (the code and, if present, its Enter/Tab).
    public func source(of keystrokes: [Keystroke]) -> InputSource {
        let characters = keystrokes.filter { !$0.isSuffix }.count
        guard characters >= minimumCharacters, !keystrokes.contains(where: \.isEditing),
            let mean = Self.meanGap(of: keystrokes), let longest = Self.gaps(of: keystrokes).max()
        else { return .person }
        return mean <= maximumMeanGap && longest <= maximumGap ? .scanner : .person
    }

    /// The mean time between consecutive keystrokes; `nil` for fewer than two.
    public static func meanGap(of keystrokes: [Keystroke]) -> Duration? {
        let gaps = gaps(of: keystrokes)
        guard !gaps.isEmpty else { return nil }
        return gaps.reduce(.zero, +) / gaps.count
    }

    static func gaps(of keystrokes: [Keystroke]) -> [Duration] {
        zip(keystrokes.dropFirst(), keystrokes).map { later, earlier in later.time - earlier.time }
    }
}
