/// How many screen pixels one terminal cell covers. Graphics protocols draw at this resolution;
/// symbol rendering needs only its ratio (cells are about twice as tall as wide). The terminal
/// reports it (`CSI 16 t`, read by TerminalInput, or TIOCGWINSZ's pixel fields
/// divided by the cell counts); `typical` stands in when it does not.
public struct CellPixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }

    /// A common monospace cell (about 10 × 20 pixels at a 13-point font).
    public static let typical = CellPixelSize(width: 10, height: 20)

    /// Width over height, about 0.5 for most fonts.
    public var aspect: Double { Double(width) / Double(height) }
    public var description: String { "\(width)x\(height)" }
}
