import Foundation

/// A terminal graphics protocol: a photo travels as one escape sequence that the terminal draws
/// over a rectangle of cells, at the terminal's own pixel resolution.
public enum TerminalGraphics: String, CaseIterable, Codable, Sendable, Hashable {
    case kitty
    case iterm2
    case sixel

    /// For Settings and `doctor`: "Automatic (sixel)".
    public var title: String {
        switch self {
        case .kitty: "kitty graphics"
        case .iterm2: "iTerm2 images"
        case .sixel: "sixel"
        }
    }

    /// For the Settings row's value: "Automatic (kitty)"; the protocol's own name, iTerm2's as
    /// its maker writes it.
    public var shortTitle: String { self == .iterm2 ? "iTerm2" : rawValue }
}

/// How many screen pixels one terminal cell covers, as the terminal reports it (`CSI 16 t`, or
/// TIOCGWINSZ's pixel fields over the cells). Graphics protocols draw at this resolution; symbols
/// need only its shape (cells are about twice as tall as wide), so they are made at `typical`.
public struct CellPixels: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    /// Nil unless both are plausible (1–1000 pixels).
    public init?(width: Int, height: Int) {
        guard (1...1000).contains(width), (1...1000).contains(height) else { return nil }
        self.width = width
        self.height = height
    }

    /// A common monospace cell (about 10 × 20 pixels), for protocols that scale the picture to
    /// its cells anyway (kitty, iTerm2) when the terminal did not say.
    public static let typical = CellPixels(uncheckedWidth: 10, height: 20)

    private init(uncheckedWidth width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Width over height, about 0.5 for most fonts.
    public var aspect: Double { Double(width) / Double(height) }

    /// The same shape, `factor` times the size (at least a pixel each way).
    public func scaled(by factor: Double) -> CellPixels {
        CellPixels(uncheckedWidth: max(1, Int(Double(width) * factor)), height: max(1, Int(Double(height) * factor)))
    }

    public var description: String { "\(width)x\(height)" }
}

/// A photo drawn by a graphics protocol: the escape sequence that draws it with its top-left
/// corner at the cursor, over `PreviewImage.size` cells. Never part of the cell grid: the
/// terminal layer writes it after the frame, where the frame reserved its cells.
public struct PreviewGraphics: Hashable, Sendable {
    public var graphics: TerminalGraphics
    public var sequence: String

    public init(graphics: TerminalGraphics, sequence: String) {
        self.graphics = graphics
        self.sequence = sequence
    }
}
