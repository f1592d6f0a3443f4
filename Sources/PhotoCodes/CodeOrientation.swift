/// Which way a code reads in the photo, as zbar reports it (coarse, axis-aligned).
public enum CodeOrientation: String, Hashable, Sendable, CaseIterable {
    /// Left to right.
    case up
    /// Top to bottom: the photo (or the code) is turned a quarter clockwise.
    case right
    /// Right to left: upside down.
    case down
    /// Bottom to top.
    case left
    case unknown
}
