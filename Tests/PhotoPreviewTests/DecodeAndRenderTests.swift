import Domain
import Foundation
import PhotoPreview
import TestSupport
import Testing

/// Every format from a generated image, decoded and rendered into a box.
@Suite struct DecodeAndRenderTests {
    static let red: SampleImages.RGB = (255, 0, 0)
    static let blue: SampleImages.RGB = (0, 0, 255)

    /// Half red, half blue, 2:1, saved as `name`.
    static func redBlue(_ name: String, in folder: TemporaryFolder) throws -> URL {
        let pixels = SampleImages.halves(width: 160, height: 80, left: red, right: blue)
        return try SampleImages.save(pixels, width: 160, height: 80, as: name, in: folder.url)
    }

    static let formats = ["photo.png", "photo.jpg[Q=92]", "photo.webp[Q=92]", "photo.gif", "photo.heic[Q=90]"]

    @Test(arguments: formats)
    func decodesAndRendersIntoTheBox(name: String) throws {
        let folder = try TemporaryFolder()
        let file = try Self.redBlue(name, in: folder)
        let pipeline = PreviewPipeline()
        let box = CellSize(columns: 40, rows: 30)

        let image = try pipeline.makePreview(of: file, box: box, mode: .symbols(.blocks, .palette256), cell: .typical)

        // 160×80 pixels in 10×20-pixel cells is 4:1 in cells: 40 columns by 10 rows.
        #expect(image.size == CellSize(columns: 40, rows: 10))
        guard image.graphics == nil else {
            Issue.record("expected cells, got \(image)")
            return
        }
        let grid = image
        for row in 0..<grid.size.rows {
            #expect(isReddish(seenColor(grid[row, 2])), "row \(row), left")
            #expect(isBluish(seenColor(grid[row, grid.size.columns - 3])), "row \(row), right")
        }
    }

    @Test func aSmallPhotoIsEnlargedToTheBox() throws {
        let folder = try TemporaryFolder()
        let file = try SampleImages.save(SampleImages.halves(width: 4, height: 4, left: Self.red, right: Self.blue), width: 4, height: 4, as: "tiny.png", in: folder.url)
        let image = try PreviewPipeline().makePreview(of: file, box: CellSize(columns: 20, rows: 20), mode: .symbols(.blocks, .palette256), cell: .typical)
        #expect(image.size == CellSize(columns: 20, rows: 10))
    }

    @Test func aTallPhotoFitsTheBoxHeight() throws {
        let folder = try TemporaryFolder()
        let file = try SampleImages.save(SampleImages.photoLike(width: 60, height: 240), width: 60, height: 240, as: "tall.jpg", in: folder.url)
        let image = try PreviewPipeline().makePreview(of: file, box: CellSize(columns: 80, rows: 24), mode: .symbols(.blocks, .palette256), cell: .typical)
        // 60×240 pixels = 6×12 cells' worth, scaled up to the 24 rows: 12 × 24.
        #expect(image.size == CellSize(columns: 12, rows: 24))
    }

    @Test func aLinkedPhotoIsAPhoto() throws {
        let folder = try TemporaryFolder()
        let file = try Self.redBlue("photo.png", in: folder)
        let link = folder.file("link.png")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let image = try PreviewPipeline().makePreview(of: link, box: CellSize(columns: 40, rows: 30), mode: .symbols(.blocks, .palette256), cell: .typical)
        #expect(image.size == CellSize(columns: 40, rows: 10))
    }

    @Test func readsTheHeaderWithoutDecoding() throws {
        let folder = try TemporaryFolder()
        let file = try Self.redBlue("photo.jpg", in: folder)
        let header = try VipsPhotoDecoder().readHeader(of: file)
        #expect(header.storedSize == PixelSize(width: 160, height: 80))
        #expect(header.loader == "jpegload")
        #expect(header.pages == 1)
    }
}

// MARK: - What a cell looks like

/// The colour a reader sees in a cell: the background for a space, else the foreground.
func seenColor(_ cell: PreviewImage.Cell) -> PreviewColor? {
    cell.character == " " ? cell.background : cell.foreground
}

func isReddish(_ color: PreviewColor?) -> Bool {
    guard let rgb = color?.rgb else { return false }
    return rgb >> 16 > 180 && (rgb >> 8) & 0xFF < 80 && rgb & 0xFF < 80
}

func isBluish(_ color: PreviewColor?) -> Bool {
    guard let rgb = color?.rgb else { return false }
    return rgb & 0xFF > 180 && rgb >> 16 < 80 && (rgb >> 8) & 0xFF < 80
}
