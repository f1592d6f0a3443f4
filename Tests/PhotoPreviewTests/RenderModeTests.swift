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

    func render(_ file: URL, _ mode: RenderMode, box: CellSize = CellSize(columns: 40, rows: 20)) throws -> PreviewImage {
        try PreviewPipeline().makePreview(of: file, box: box, mode: mode, cell: .typical)
    }

    func grid(_ file: URL, _ mode: RenderMode) throws -> PreviewImage {
        let image = try render(file, mode)
        guard image.graphics == nil else { throw SampleImageError(description: "expected cells for \(mode)") }
        return image
    }

    /// A picture through a graphics protocol: its size and its sequence.
    func picture(_ file: URL, _ graphics: TerminalGraphics) throws -> (size: CellSize, sequence: String) {
        let image = try render(file, .graphics(graphics))
        guard let picture = image.graphics else { throw SampleImageError(description: "expected a \(graphics) picture") }
        #expect(picture.graphics == graphics)
        return (image.size, picture.sequence)
    }

    @Test(arguments: [PreviewStyle.Colors.palette256, .monochrome])
    func asciiModeWritesOnlyPrintableASCII(colors: PreviewStyle.Colors) throws {
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
        let cells = try grid(photo, .symbols(.blocks, .palette256)).cells
        #expect(cells.allSatisfy { $0.character == " " || (0x2580...0x259F).contains($0.character.value) })
        #expect(cells.contains { $0.character != " " })
    }

    @Test func palette256CellsUseTheFixedPaletteEntries() throws {
        let cells = try grid(photo, .symbols(.blocks, .palette256)).cells
        let colors = cells.flatMap { [$0.foreground, $0.background].compactMap { $0 } }
        #expect(!colors.isEmpty)
        for color in colors {
            #expect(color.index256 >= 16)
            #expect(Self.xtermRGB(color.index256) == color.rgb, "entry \(color.index256)")
        }
    }

    /// An entry of the xterm palette from 16 on: the 6 × 6 × 6 cube, then 24 greys.
    static func xtermRGB(_ index: UInt8) -> UInt32 {
        if index >= 232 {
            let grey = UInt32(8 + 10 * (Int(index) - 232))
            return grey << 16 | grey << 8 | grey
        }
        let levels: [UInt32] = [0, 95, 135, 175, 215, 255]
        let cube = Int(index) - 16
        return levels[cube / 36] << 16 | levels[cube / 6 % 6] << 8 | levels[cube % 6]
    }

    @Test func kittyIsAQuietImmediateImage() throws {
        let image = try picture(photo, .kitty)
        #expect(image.size == CellSize(columns: 40, rows: 15))
        #expect(image.sequence.hasPrefix("\u{1B}_Ga=T,q=2,"))
        #expect(image.sequence.contains("c=40,r=15"))
        #expect(image.sequence.hasSuffix("\u{1B}\\"))
    }

    @Test func sixelIsADeviceControlString() throws {
        let image = try picture(photo, .sixel)
        #expect(image.sequence.hasPrefix("\u{1B}P"))
        #expect(image.sequence.contains("q"))
        #expect(image.sequence.hasSuffix("\u{1B}\\"))
    }

    @Test func iTerm2IsAnInlineFile() throws {
        let image = try picture(photo, .iterm2)
        #expect(image.sequence.hasPrefix("\u{1B}]1337;File=inline=1;width=40;height=15"))
        #expect(image.sequence.hasSuffix("\u{07}"))
    }
}
