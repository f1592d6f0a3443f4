import CaptureMode
import PropertyBased
import Testing

@Suite("TextBuffer")
struct TextBufferTests {
    // MARK: - Editing

    @Test("typing appends at the cursor")
    func insertAppends() {
        var buffer = TextBuffer()
        buffer.insert("ab")
        buffer.insert("c")
        #expect(buffer.text == "abc")
        #expect(buffer.cursor == 3)
    }

    @Test("typing after moving left inserts in the middle")
    func insertInMiddle() {
        var buffer = TextBuffer("ac")
        buffer.move(.left)
        buffer.insert("b")
        #expect(buffer.text == "abc")
        #expect(buffer.cursor == 2)
    }

    @Test("Ctrl-U deletes from the start of the cursor's line to the cursor, keeping other lines")
    func deleteToLineStart() {
        var buffer = TextBuffer("one\ntwo three", multiline: true)
        buffer.move(.left)
        buffer.move(.left)
        buffer.deleteToLineStart()
        #expect(buffer.text == "one\nee")
        #expect(buffer.cursor == 4)
        buffer.deleteToLineStart()
        #expect(buffer.text == "one\nee", "at the start of a line it does nothing")
        var single = TextBuffer("4006381333931")
        single.deleteToLineStart()
        #expect(single.text.isEmpty && single.cursor == 0)
    }

    @Test("backspace removes before the cursor; at the start it does nothing")
    func backspace() {
        var buffer = TextBuffer("abc")
        buffer.move(.left)
        buffer.backspace()
        #expect(buffer.text == "ac")
        #expect(buffer.cursor == 1)
        buffer.move(.home)
        buffer.backspace()
        #expect(buffer.text == "ac")
        #expect(buffer.cursor == 0)
    }

    @Test("delete removes under the cursor; at the end it does nothing")
    func deleteForward() {
        var buffer = TextBuffer("abc")
        buffer.move(.home)
        buffer.deleteForward()
        #expect(buffer.text == "bc")
        #expect(buffer.cursor == 0)
        buffer.move(.end)
        buffer.deleteForward()
        #expect(buffer.text == "bc")
        #expect(buffer.cursor == 2)
    }

    @Test("left and right stop at the ends")
    func leftRightStopAtEnds() {
        var buffer = TextBuffer("ab")
        buffer.move(.right)
        #expect(buffer.cursor == 2)
        buffer.move(.left)
        buffer.move(.left)
        buffer.move(.left)
        #expect(buffer.cursor == 0)
    }

    @Test("home and end go to the ends of the current line")
    func homeEnd() {
        var buffer = TextBuffer("one\ntwo\nthree", multiline: true)
        buffer.move(.up)  // line 1, column 3 (end of "two")
        buffer.move(.home)
        #expect(buffer.cursorPosition == (line: 1, column: 0))
        buffer.move(.end)
        #expect(buffer.cursorPosition == (line: 1, column: 3))
    }

    @Test("clear empties the buffer")
    func clear() {
        var buffer = TextBuffer("abc")
        buffer.clear()
        #expect(buffer.isEmpty)
        #expect(buffer.cursor == 0)
    }

    // MARK: - Lines

    @Test("up and down keep the column")
    func upDownKeepColumn() {
        var buffer = TextBuffer("abcd\nefgh", multiline: true)
        buffer.move(.left)  // line 1, column 3
        buffer.move(.up)
        #expect(buffer.cursorPosition == (line: 0, column: 3))
        buffer.move(.down)
        #expect(buffer.cursorPosition == (line: 1, column: 3))
    }

    @Test("up and down clamp the column to a shorter line")
    func upDownClampToShorterLine() {
        var buffer = TextBuffer("abcdef\nab\nabcdefgh", multiline: true)
        buffer.move(.up)  // from line 2, column 8
        #expect(buffer.cursorPosition == (line: 1, column: 2))
        buffer.move(.home)
        buffer.move(.up)
        buffer.move(.end)  // line 0, column 6
        buffer.move(.down)
        #expect(buffer.cursorPosition == (line: 1, column: 2))
    }

    @Test("up on the first line goes to the start, down on the last line to the end")
    func upDownAtEdges() {
        var buffer = TextBuffer("abc\ndef", multiline: true)
        buffer.move(.down)
        #expect(buffer.cursor == 7)
        buffer.move(.up)
        buffer.move(.up)
        #expect(buffer.cursor == 0)
    }

    @Test("lines splits on newlines and keeps empty lines")
    func lines() {
        #expect(TextBuffer("a\n\nb\n", multiline: true).lines == ["a", "", "b", ""])
        #expect(TextBuffer().lines == [""])
    }

    // MARK: - Newlines

    @Test("a single-line buffer turns newlines into spaces")
    func singleLineNewlinesBecomeSpaces() {
        var buffer = TextBuffer("a\nb")
        #expect(buffer.text == "a b")
        buffer.insert("\nc\r\nd\re")
        #expect(buffer.text == "a b c d e")
    }

    @Test("a multi-line buffer normalises CRLF and CR to LF when typing")
    func crlfNormalisedOnInsert() {
        var buffer = TextBuffer(multiline: true)
        buffer.insert("a\r\nb\rc")
        #expect(buffer.text == "a\nb\nc")
        #expect(buffer.lines == ["a", "b", "c"])
        #expect(buffer.cursorPosition == (line: 2, column: 1))
    }

    @Test("initial text gets the same CRLF normalisation as typed text")
    func crlfNormalisedOnInit() {
        #expect(TextBuffer("a\r\nb", multiline: true).text == "a\nb")
        #expect(TextBuffer("a\r\nb").text == "a b")
    }

    // MARK: - Limit

    @Test("text beyond the limit is dropped")
    func limit() {
        var buffer = TextBuffer(limit: 5)
        buffer.insert("abcdefg")
        #expect(buffer.text == "abcde")
        buffer.move(.home)
        buffer.insert("x")
        #expect(buffer.text == "abcde")
        #expect(buffer.cursor == 0)
        #expect(TextBuffer("abcdefg", limit: 3).text == "abc")
    }

    // MARK: - Grapheme clusters

    @Test(
        "CJK, ZWJ emoji, flags and combining marks edit as one unit each",
        arguments: [
            "漢", "👩‍👩‍👧", "🇯🇵", "e\u{301}", "👍🏽",
        ])
    func graphemeClusterIsOneUnit(cluster: String) {
        var buffer = TextBuffer(multiline: true)
        buffer.insert("a" + cluster + "b")
        #expect(buffer.characters.count == 3)
        buffer.move(.left)
        #expect(buffer.cursorPosition == (line: 0, column: 2))
        buffer.backspace()
        #expect(buffer.text == "ab")
    }

    @Test("a combining mark typed on its own joins the character before it")
    func separatelyTypedCombiningMarkJoinsCluster() {
        // Many keyboard layouts (Devanagari vowel signs, some dead-key setups) send the
        // combining mark as its own key press.
        var buffer = TextBuffer(multiline: true)
        buffer.insert("e")
        buffer.insert("\u{301}")
        #expect(buffer.text == "e\u{301}")
        #expect(buffer.characters.count == buffer.text.count)
        #expect(buffer.cursorPosition == (line: 0, column: 1))
    }

    // MARK: - Properties

    enum Edit: CaseIterable, Sendable { case insert, backspace, delete, left, right, up, down, home, end }

    static let pieces = ["a", "Z", " ", "7", "\n", "\r\n", "\r", "漢字", "👩‍👩‍👧", "🇯🇵", "e\u{301}", "hello world", ""]

    @Test("random edits never put the cursor outside 0...count or the text over its limit")
    func randomEditsKeepCursorInBounds() async {
        let edits = zip(Gen<Edit>.case, Gen.int(in: 0...(Self.pieces.count - 1))).array(of: 1...200)
        await propertyCheck(count: 500, input: edits, Gen.bool, Gen.int(in: 1...40)) { edits, multiline, limit in
            var buffer = TextBuffer(multiline: multiline, limit: limit)
            for (edit, piece) in edits {
                switch edit {
                case .insert: buffer.insert(Self.pieces[piece])
                case .backspace: buffer.backspace()
                case .delete: buffer.deleteForward()
                case .left: buffer.move(.left)
                case .right: buffer.move(.right)
                case .up: buffer.move(.up)
                case .down: buffer.move(.down)
                case .home: buffer.move(.home)
                case .end: buffer.move(.end)
                }
                guard (0...buffer.characters.count).contains(buffer.cursor), buffer.characters.count <= limit else {
                    Issue.record("cursor \(buffer.cursor) outside 0...\(buffer.characters.count) (limit \(limit)) after \(edit)")
                    return
                }
                if !multiline, buffer.text.contains(where: \.isNewline) {
                    Issue.record("single-line buffer holds a newline: \(buffer.text.debugDescription)")
                    return
                }
                let position = buffer.cursorPosition
                #expect(position.line < buffer.lines.count)
            }
        }
    }
}
