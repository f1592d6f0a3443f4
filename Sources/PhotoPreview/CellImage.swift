import Domain

/// A photo made ready for the terminal: cells to draw like any other screen content, or an
/// escape sequence to write over a reserved area after the frame.
public enum CellImage: Hashable, Sendable {
    case cells(CellGrid)
    case graphics(GraphicsImage)

    /// The cells it covers; at most the box it was asked to fit, with the photo's proportions.
    public var size: CellSize {
        switch self {
        case .cells(let grid): grid.size
        case .graphics(let image): image.size
        }
    }
}
