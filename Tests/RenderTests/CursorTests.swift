import CaptureMode
import TabShell
import Testing

@testable import Render

@Suite struct CursorTests {
    @Test func barcodeCursorSitsAfterWideCharacters() throws {
        let presentation = Demo.capture {
            _ = $0.send(.kindChosen(.barcode))
            _ = $0.send(.textTyped("日本abc"))
            _ = $0.send(.cursorMoved(.left))
        }
        let frame = Screen.render(Demo.state(presentation: presentation), options: Demo.options)
        let field = try #require(frame.find("Code ["))
        #expect(frame.cursor == CursorPosition(row: field.row, column: field.column + 6 + 6))
    }

    @Test func noteCursorFollowsWrappedLines() throws {
        let presentation = Demo.capture {
            _ = $0.send(.kindChosen(.note))
            _ = $0.send(.textTyped("ab\n日本"))
        }
        let frame = Screen.render(Demo.state(presentation: presentation), options: Demo.options)
        let first = try #require(frame.find("ab"))
        #expect(frame.cursor == CursorPosition(row: first.row + 1, column: first.column + 4))
    }

    @Test func noteCursorMovesToTheNextRowWhenALineWraps() throws {
        let presentation = Demo.capture {
            _ = $0.send(.kindChosen(.note))
            _ = $0.send(.textTyped("one two three four five six"))
        }
        let frame = Screen.render(Demo.state(columns: 24, rows: 12, presentation: presentation), options: Demo.options)
        let first = try #require(frame.find("one two"))
        let cursor = try #require(frame.cursor)
        #expect(cursor.row > first.row)
        #expect(frame.grid[cursor.row, cursor.column].text == " ")
        #expect(frame.grid[cursor.row, cursor.column - 1].text == "x")
    }

    @Test func noCursorOutsideTextFields() {
        let review = Demo.capture(request: Demo.requests[0]) {
            _ = $0.send(.textPasted("4006381333931"))
            _ = $0.send(.autoAdvanceElapsed(token: $0.autoAdvanceToken))
        }
        #expect(Screen.render(Demo.state(presentation: review), options: Demo.options).cursor == nil)
        #expect(Screen.render(Demo.state(.inbox), options: Demo.options).cursor == nil)
    }
}
