import Domain

/// A rectangle's size in terminal cells: the box a preview must fit, and the size it came out.
/// The previewer's `CellSize` (Domain), so a box goes to it and a size comes back as is.
public typealias CellBox = CellSize
