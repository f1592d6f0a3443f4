import CaptureMode
import Domain
import TabShell
import Testing

@testable import Render

/// The small things a new user noticed, each at the level where it is drawn.
@Suite struct SmallThingsTests {
    @Test func belowTheMinimumTheNoticeSaysTooSmallInWordsThatFit() {
        for columns in 1..<Layout.minimumSize.columns {
            for rows in 1..<Layout.minimumSize.rows {
                let frame = Screen.render(Demo.state(.inbox, columns: columns, rows: rows), options: Demo.options)
                let text = frame.grid.text
                #expect(!text.contains("\u{2026}"), "\(columns)x\(rows): a word was cut:\n\(text)")
                let words = TooSmallView.headings
                #expect(words.contains { text.contains($0) }, "\(columns)x\(rows):\n\(text)")
                if columns >= 9 { #expect(text.contains("oo small"), "\(columns)x\(rows):\n\(text)") }
            }
        }
    }

    @Test func underNoColorTheColourSettingSaysWhyItIsOff() {
        var state = Demo.state(.settings)
        state.environment = DisplayEnvironment(noColor: true)
        let text = Screen.render(state, options: RenderOptions(unicode: true, color: false, now: Demo.now)).grid.text
        #expect(text.contains("[NO_COLOR]"), "\(text)")
        #expect(!text.contains("Colour                          [on]"))
    }

    @Test func inMonochromeTheSelectedTabsBadgeIsReversedWithIt() throws {
        let state = Demo.state(.inbox)
        let frame = Screen.render(state, options: RenderOptions(unicode: true, color: false, now: Demo.now))
        let row = frame.grid.height - 1
        let badgeColumn = try #require(frame.grid.text(ofRow: row).range(of: "(")).lowerBound
        let column = frame.grid.text(ofRow: row).distance(from: frame.grid.text(ofRow: row).startIndex, to: badgeColumn)
        #expect(frame.grid[row, column].style == .tabSelected)
        let colour = Screen.render(state, options: Demo.options)
        #expect(colour.grid[row, column].style == .badge, "with colour the badge keeps its own colour")
    }

    @Test func theActionTabStaysAPlusWhenLabelsShrinkToDigits() {
        let text = Screen.render(Demo.state(.history, columns: 24, rows: 8), options: Demo.options).grid.text(ofRow: 7)
        #expect(text.contains("+"))
        #expect(!text.contains(" 2 "))
    }

    @Test func aProductWhoseBarcodeWasSkippedSaysSoOnReview() {
        var capture = CaptureState(
            config: CaptureConfig(), request: nil, kind: .product, phase: .review, barcode: nil, note: nil,
            photos: [StagedPhoto(storedName: "a.png", originalName: "shelf.png", format: .png, pixelWidth: 4, pixelHeight: 3, byteSize: 99)])
        capture.phase = .review
        let text = Screen.render(Demo.state(.inbox, presentation: .fullScreenCapture(capture)), options: Demo.options).grid.text
        #expect(text.contains("barcode skipped"), "\(text)")
    }
}
