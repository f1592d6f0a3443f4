import Domain
import PhotoPreview
import Testing

@Suite struct CellFitTests {
    /// A cell of a size the terminal could report.
    static func cell(_ width: Int, _ height: Int) -> CellPixels {
        guard let cell = CellPixels(width: width, height: height) else { preconditionFailure("\(width)x\(height) is a plausible cell") }
        return cell
    }

    @Test(arguments: [
        (PixelSize(width: 4000, height: 3000), CellSize(columns: 80, rows: 24), CellSize(columns: 64, rows: 24)),
        (PixelSize(width: 3000, height: 4000), CellSize(columns: 80, rows: 24), CellSize(columns: 36, rows: 24)),
        (PixelSize(width: 1000, height: 100), CellSize(columns: 40, rows: 20), CellSize(columns: 40, rows: 2)),
        (PixelSize(width: 1, height: 10_000), CellSize(columns: 40, rows: 20), CellSize(columns: 1, rows: 20)),
        (PixelSize(width: 10_000, height: 1), CellSize(columns: 40, rows: 20), CellSize(columns: 40, rows: 1)),
    ])
    func fitsTheBoxKeepingProportions(photo: PixelSize, box: CellSize, expected: CellSize) {
        #expect(CellFit.cells(for: photo, in: box, cell: .typical) == expected)
    }

    @Test func squareCellsMakeASquarePhotoSquare() {
        #expect(
            CellFit.cells(for: PixelSize(width: 500, height: 500), in: CellSize(columns: 30, rows: 30), cell: Self.cell(10, 10))
                == CellSize(columns: 30, rows: 30))
    }

    @Test func anEmptyBoxOrPhotoGivesNothing() {
        #expect(CellFit.cells(for: PixelSize(width: 10, height: 10), in: CellSize(columns: 0, rows: 5), cell: .typical).isEmpty)
        #expect(CellFit.cells(for: PixelSize(width: 0, height: 10), in: CellSize(columns: 5, rows: 5), cell: .typical).isEmpty)
    }

    @Test func theDecodeBoxIsWhatTheModeCanUse() {
        let cells = CellSize(columns: 20, rows: 10)
        #expect(CellFit.decodeBox(for: cells, mode: .graphics(.sixel), cell: Self.cell(9, 18)) == PixelSize(width: 180, height: 180))
        #expect(CellFit.decodeBox(for: cells, mode: .symbols(.blocks, .palette256), cell: .typical) == PixelSize(width: 160, height: 160))
    }
}
