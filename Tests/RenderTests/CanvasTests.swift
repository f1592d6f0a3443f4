import TabShell
import Testing

@testable import Render

@Suite struct CanvasTests {
    private func canvas(width: Int) -> Canvas {
        Canvas(size: ScreenSize(rows: 1, columns: width), context: RenderContext(options: Demo.options))
    }

    @Test func wideCharacterAtTheClipEdgeBecomesASpace() {
        var canvas = canvas(width: 6)
        let used = canvas.put("ab日本", row: 0, column: 0, width: 5, style: .normal, overflow: .clip)
        #expect(used == 5)
        #expect(canvas.grid.text(ofRow: 0) == "ab日  ")
        #expect(canvas.frame.structuralProblems.isEmpty)
    }

    @Test func wideCharacterTakesACellAndAContinuation() {
        var canvas = canvas(width: 4)
        canvas.put("日本", row: 0, column: 0)
        #expect(canvas.grid[0, 0].text == "日")
        #expect(canvas.grid[0, 1].isContinuation)
        #expect(canvas.grid[0, 2].text == "本")
        #expect(canvas.grid[0, 3].isContinuation)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var canvas = canvas(width: 6)
        canvas.put("日本語", row: 0, column: 0)
        canvas.put("x", row: 0, column: 1)  // right half of 日
        canvas.put("y", row: 0, column: 2)  // left half of 本
        #expect(canvas.grid.text(ofRow: 0) == " xy 語")
        #expect(canvas.frame.structuralProblems.isEmpty)
    }

    @Test func drawingOutsideTheGridIsIgnored() {
        var canvas = canvas(width: 3)
        canvas.put("abc", row: 1, column: 0)
        canvas.put("abc", row: -1, column: 0)
        canvas.put("abc", row: 0, column: 5)
        canvas.put("abcdef", row: 0, column: -2, overflow: .clip)
        canvas.addHitRegion(row: 4, columns: 0..<2, action: .alertDismissed)
        #expect(canvas.grid.text(ofRow: 0) == "cde")
        #expect(canvas.hitRegions.isEmpty)
    }

    @Test func controlsCannotReachACell() {
        var canvas = canvas(width: 10)
        canvas.put("\u{1B}[2J\u{9B}", row: 0, column: 0)
        #expect(canvas.grid.text(ofRow: 0) == "␛[2J�     ")
    }
}
