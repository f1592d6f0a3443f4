import Domain
import Foundation
import PhotoPreview
import TestSupport
import Testing

/// The text of a known picture in each symbol set the app draws (blocks in the 256-colour
/// palette, ASCII in monochrome), as reviewed with chafa 1.12.4 (a new chafa
/// may choose other symbols: look at the new rendering, then update these).
@Suite struct BlockSnapshotTests {
    func rows(_ mode: RenderMode) throws -> [String] {
        let folder = try TemporaryFolder()
        let file = try SampleImages.save(KnownImage.pixels, width: KnownImage.width, height: KnownImage.height, as: "known.png", in: folder.url)
        let image = try PreviewPipeline().makePreview(of: file, box: CellSize(columns: 24, rows: 12), mode: mode, cell: .typical)
        guard image.graphics == nil else { return [] }
        // Each row's characters, without colours.
        return (0..<image.size.rows).map { row in String(String.UnicodeScalarView((0..<image.size.columns).map { image[row, $0].character })) }
    }

    @Test func blocks() throws {
        #expect(
            try rows(.symbols(.blocks, .palette256)) == [
                " ▕▀▀▀▀▀▀▃▃▀▀▀▀▃▃▂▁      ",
                " ▕     ▕▏         ▔▆▃▏  ",
                " ▕▘                  ▝▏ ",
                " ▕▖                  ▗▏ ",
                "  ▔▅▂▁            ▁▂▅▔  ",
                "      ▔▆▅▅▀▀▀▀▅▅▆▔      ",
            ])
    }

    /// Monochrome ASCII shows brightness only: the red square is as dark as the background.
    @Test func asciiMonochrome() throws {
        #expect(
            try rows(.symbols(.ascii, .monochrome)) == [
                "        _yyyyyy___      ",
                "        @@@@@@@@@@@g_   ",
                "  g@@@@@@@@@@@@@@@@@@@  ",
                "  4@@@@@@@@@@@@@@@@@@P  ",
                "   ~4@@@@@@@@@@@@@@P~   ",
                "      `~~~FFFF~~~`      ",
            ])
    }
}
