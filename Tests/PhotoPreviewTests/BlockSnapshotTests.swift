import Domain
import Foundation
import PhotoPreview
import TestSupport
import Testing

/// The text of a known picture in each symbol set, as reviewed with chafa 1.12.4 (a new chafa
/// may choose other symbols: look at the new rendering, then update these).
@Suite struct BlockSnapshotTests {
    func rows(_ mode: RenderMode) throws -> [String] {
        let folder = try TemporaryFolder()
        let file = try SampleImages.save(KnownImage.pixels, width: KnownImage.width, height: KnownImage.height, as: "known.png", in: folder.url)
        let image = try PreviewPipeline().makePreview(of: file, box: CellSize(columns: 24, rows: 12), mode: mode, cell: .typical)
        guard case .cells(let grid) = image else { return [] }
        return (0..<grid.size.rows).map { grid.text(ofRow: $0) }
    }

    @Test func blocks() throws {
        #expect(
            try rows(.symbols(.blocks, .truecolor)) == [
                " ▕▀▀▀▀▀▀▃▃▀▀▀▀▃▃▂▁      ",
                " ▕▏    ▕▏         ▔▆▃▏  ",
                " ▕▘                  ▝▏ ",
                " ▕▖                  ▗▏ ",
                "  ▔▅▂▁            ▁▂▅▔  ",
                "      ▔▆▅▅▀▀▀▀▅▅▆▔      ",
            ])
    }

    @Test func sextants() throws {
        #expect(
            try rows(.symbols(.sextants, .truecolor)) == [
                " ▕▀▀▀▀▀▀🬭🬭▀▀▀▀🬭🬭▂▁      ",
                " ▕▏    ▕▏         ▔▆🬭▁  ",
                " ▕🬀                  🬁▏ ",
                " ▕🬏                  🬞▏ ",
                "  ▔🬂▂▁            ▁▂🬂▔  ",
                "      ▔▆🬂🬂▀▀▀▀🬂🬂▆▔      ",
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
