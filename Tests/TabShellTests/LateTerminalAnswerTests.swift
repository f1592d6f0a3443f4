import Domain
import Foundation
import TabShell
import Testing

/// The terminal's answers are not waited for at start: photos shown before they come are
/// drawn in blocks, and the answer, when it says graphics, has them drawn again as pictures.
@Suite("A late answer from the terminal")
struct LateTerminalAnswerTests {
    static let cell = CellPixels(width: 10, height: 20)!
    static let kitty = PreviewTerminal(symbols: .blocks, has256Colors: true, graphics: .kitty, cellPixels: cell)

    @Test("a photo on screen in blocks is asked again as a graphics picture; the blocks stand in until it is made")
    func blocksThenGraphics() throws {
        var state = AppState.detailWithPhotos(1)
        let shown = try #require(state.previews.wanted.first)
        #expect(shown.style == blocks256)
        let ticket = try #require(state.previews.status(of: shown).flatMap { if case let .loading(ticket) = $0 { ticket } else { nil } })
        _ = state.send(.previewLoaded(shown, ticket: ticket, .image(picture(shown.box))))

        let effects = state.send(.previewTerminalFound(Self.kitty))
        let graphics = PreviewStyle.graphics(.kitty, cell: Self.cell)
        #expect(effects.previewLoads.map(\.request) == [PreviewRequest(source: shown.source, box: shown.box, style: graphics)])
        let wanted = try #require(state.previews.wanted.first)
        #expect(wanted.style == graphics)
        // While the picture is made, the blocks are drawn where it will be.
        #expect(state.previews.standIn(for: wanted) == picture(shown.box))
    }

    @Test("an answer without graphics changes nothing on screen: nothing is asked again")
    func answerWithoutGraphics() {
        var state = AppState.detailWithPhotos(1)
        let plain = PreviewTerminal(symbols: .blocks, has256Colors: true, automaticReason: "the terminal has no graphics")
        let effects = state.send(.previewTerminalFound(plain))
        #expect(effects.previewLoads.isEmpty)
        #expect(state.previews.wanted.map(\.style) == [blocks256])
    }
}
