import Domain
import Testing

@testable import Runtime

/// The cell size a preview is made at: the terminal's own for sixel, smaller (same shape) for a
/// kitty or iTerm2 picture that would take more than the cap, `typical` for symbols.
@Suite struct PreviewCellSizeTests {
    static let cell = CellPixels(width: 10, height: 20)

    @Test func symbolsAreMadeAtATypicalCell() throws {
        let style = PreviewStyle.symbols(.blocks, .palette256)
        #expect(PreviewLoader.cellPixels(for: style, box: CellSize(columns: 200, rows: 60)) == .typical)
    }

    @Test func aSixelIsMadeAtTheTerminalsOwnCellHoweverLarge() throws {
        let cell = try #require(Self.cell)
        #expect(PreviewLoader.cellPixels(for: .graphics(.sixel, cell: cell), box: CellSize(columns: 200, rows: 60)) == cell)
    }

    @Test(arguments: [TerminalGraphics.kitty, .iterm2])
    func aLargeScaledPictureIsMadeAtASmallerCellOfTheSameShape(graphics: TerminalGraphics) throws {
        let cell = try #require(Self.cell)
        // 80 x 24 cells of 10 x 20 pixels is 384,000 pixels, under the cap: as the terminal's.
        #expect(PreviewLoader.cellPixels(for: .graphics(graphics, cell: cell), box: CellSize(columns: 80, rows: 24)) == cell)
        // 200 x 60 cells would be 2,400,000 pixels: each side times √(655,360 / 2,400,000) ≈ 0.52.
        let scaled = PreviewLoader.cellPixels(for: .graphics(graphics, cell: cell), box: CellSize(columns: 200, rows: 60))
        #expect((scaled.width, scaled.height) == (5, 10))
        #expect(200 * scaled.width * 60 * scaled.height <= PreviewLoader.scaledPictureMaximumPixels)
    }

    @Test func aCellScaledToNothingKeepsAPixelEachWay() throws {
        let cell = try #require(CellPixels(width: 1, height: 3))
        #expect(cell.scaled(by: 0.1) == CellPixels(width: 1, height: 1))
    }
}
