import Domain
import Foundation
import PhotoPreview
import TestSupport
import Testing

/// What each render mode may put in a cell, and what the graphics modes write.
@Suite struct RenderModeTests {
    let folder: TemporaryFolder
    let photo: URL
    let blackWhite: URL

    init() throws {
        folder = try TemporaryFolder()
        photo = try SampleImages.save(SampleImages.photoLike(width: 320, height: 240), width: 320, height: 240, as: "photo.png", in: folder.url)
        let halves = SampleImages.halves(width: 200, height: 100, left: (0, 0, 0), right: (255, 255, 255))
        blackWhite = try SampleImages.save(halves, width: 200, height: 100, as: "black-white.png", in: folder.url)
    }

    func render(_ file: URL, _ mode: RenderMode, box: CellSize = CellSize(columns: 40, rows: 20)) throws -> CellImage {
        try PreviewPipeline().makePreview(of: file, box: box, mode: mode, cell: .typical)
    }

    func grid(_ file: URL, _ mode: RenderMode) throws -> CellGrid {
        guard case .cells(let grid) = try render(file, mode) else { throw SampleImageError(description: "expected cells for \(mode)") }
        return grid
    }

    @Test(arguments: [ColorDepth.truecolor, .palette256, .monochrome])
    func asciiModeWritesOnlyPrintableASCII(colors: ColorDepth) throws {
        let cells = try grid(photo, .symbols(.ascii, colors)).cells
        #expect(cells.allSatisfy { (0x20...0x7E).contains($0.character.value) })
        #expect(cells.contains { $0.character != " " })
    }

    @Test func monochromeHasNoColours() throws {
        let grid = try grid(blackWhite, .symbols(.blocks, .monochrome))
        #expect(grid.cells.allSatisfy { $0.foreground == nil && $0.background == nil })
        // Shape alone carries the picture: the white half is drawn, the black half is blank.
        for row in 0..<grid.size.rows {
            #expect(grid[row, 1].character == " ")
            #expect(grid[row, grid.size.columns - 2].character == "█")
        }
    }

    @Test func asciiMonochromeDrawsTheLightHalf() throws {
        let grid = try grid(blackWhite, .symbols(.ascii, .monochrome))
        #expect(grid.cells.allSatisfy { $0.foreground == nil && $0.background == nil })
        #expect(grid[0, 1].character == " ")
        #expect(grid[0, grid.size.columns - 2].character != " ")
    }

    @Test func blocksUseOnlyBlockElements() throws {
        let cells = try grid(photo, .symbols(.blocks, .truecolor)).cells
        #expect(cells.allSatisfy { $0.character == " " || (0x2580...0x259F).contains($0.character.value) })
        #expect(cells.contains { $0.character != " " })
    }

    @Test func sextantsAddLegacyComputingSymbols() throws {
        let cells = try grid(photo, .symbols(.sextants, .truecolor)).cells
        let isSextant = { (cell: PreviewCell) in (0x1FB00...0x1FB3B).contains(cell.character.value) }
        #expect(cells.allSatisfy { $0.character == " " || (0x2580...0x259F).contains($0.character.value) || isSextant($0) })
        #expect(cells.contains(where: isSextant))
    }

    @Test func palette256CellsUseTheFixedPaletteEntries() throws {
        let cells = try grid(photo, .symbols(.blocks, .palette256)).cells
        let colors = cells.flatMap { [$0.foreground, $0.background].compactMap { $0 } }
        #expect(!colors.isEmpty)
        for color in colors {
            #expect(color.index256 >= 16)
            #expect(Palette256.rgb(ofIndex: color.index256) == color.rgb)
        }
    }

    @Test func kittyIsAQuietImmediateImage() throws {
        guard case .graphics(let image) = try render(photo, .graphics(.kitty)) else {
            Issue.record("expected graphics")
            return
        }
        #expect(image.size == CellSize(columns: 40, rows: 15))
        #expect(image.sequence.hasPrefix("\u{1B}_Ga=T,q=2,"))
        #expect(image.sequence.contains("c=40,r=15"))
        #expect(image.sequence.hasSuffix("\u{1B}\\"))
    }

    @Test func sixelIsADeviceControlString() throws {
        guard case .graphics(let image) = try render(photo, .graphics(.sixel)) else {
            Issue.record("expected graphics")
            return
        }
        #expect(image.sequence.hasPrefix("\u{1B}P"))
        #expect(image.sequence.contains("q"))
        #expect(image.sequence.hasSuffix("\u{1B}\\"))
    }

    @Test func iTerm2IsAnInlineFile() throws {
        guard case .graphics(let image) = try render(photo, .graphics(.iterm2)) else {
            Issue.record("expected graphics")
            return
        }
        #expect(image.sequence.hasPrefix("\u{1B}]1337;File=inline=1;width=40;height=15"))
        #expect(image.sequence.hasSuffix("\u{07}"))
    }

    @Test func placementSavesMovesAndRestoresTheCursor() {
        let image = GraphicsImage(graphicsProtocol: .sixel, size: CellSize(columns: 2, rows: 1), sequence: "IMG")
        #expect(image.placement(row: 4, column: 9) == "\u{1B}7\u{1B}[5;10HIMG\u{1B}8")
    }

    @Test func ansiTextCarriesTheColoursOfItsMode() throws {
        let truecolor = AnsiText.render(try grid(blackWhite, .symbols(.blocks, .truecolor)), colors: .truecolor)
        #expect(truecolor.contains("8;2;255;255;255"))
        let palette = AnsiText.render(try grid(blackWhite, .symbols(.blocks, .palette256)), colors: .palette256)
        #expect(palette.contains("8;5;"))
        let monochrome = AnsiText.render(try grid(blackWhite, .symbols(.blocks, .monochrome)), colors: .monochrome)
        #expect(!monochrome.contains("\u{1B}"))
        #expect(monochrome.split(separator: "\n").count == 10)
    }
}
