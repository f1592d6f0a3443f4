import Domain

/// Where a photo's proportions meet the terminal's cells.
public enum CellFit {
    /// The largest cell size inside `box` that shows a photo of `photo` pixels undistorted, given
    /// the shape of one cell. At least 1 × 1 when the box is not empty.
    public static func cells(for photo: PixelSize, in box: CellSize, cell: CellPixels) -> CellSize {
        guard !box.isEmpty, !photo.isEmpty else { return CellSize(columns: 0, rows: 0) }
        // In cells, the photo is (width / cell.width) wide and (height / cell.height) tall.
        let ratio = (Double(photo.width) / Double(cell.width)) / (Double(photo.height) / Double(cell.height))
        var columns = box.columns
        var rows = Int((Double(columns) / ratio).rounded())
        if rows > box.rows {
            rows = box.rows
            columns = Int((Double(rows) * ratio).rounded())
        }
        return CellSize(columns: min(box.columns, max(1, columns)), rows: min(box.rows, max(1, rows)))
    }

    /// The pixel box to decode into for a rendering of `cells`: what the mode can use, no more.
    /// Graphics protocols draw at the cell's pixel size; chafa samples 8 points across each
    /// cell for symbols, and as many per cell height as keep the proportions.
    public static func decodeBox(for cells: CellSize, mode: RenderMode, cell: CellPixels) -> PixelSize {
        switch mode {
        case .graphics:
            return PixelSize(width: cells.columns * cell.width, height: cells.rows * cell.height)
        case .symbols:
            let samplesDown = max(8, Int((8 / cell.aspect).rounded()))
            return PixelSize(width: cells.columns * 8, height: cells.rows * samplesDown)
        }
    }
}
