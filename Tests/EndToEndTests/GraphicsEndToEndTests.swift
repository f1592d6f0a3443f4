import Domain
import Foundation
import TestSupport
import Testing

/// Photo previews through terminal graphics protocols, on the real binary, with the test
/// playing a terminal it does not own (a pty: `FakeTerminal`): the terminal is asked at start,
/// sixel or kitty pictures are written after the frame where the thumbnail's cells are kept
/// blank, are not written again while nothing changes, and are taken away when the screen
/// changes (kitty: deleted; sixel: the cells under it painted over again). A terminal whose only
/// answer has no graphics gets block characters.
@Suite(.serialized, .tags(.e2e))
struct GraphicsEndToEndTests {
    static let escape: UInt8 = 0x1B

    /// A picture placed by the app: save cursor, move to (row, column), then the picture.
    struct Placement: Equatable {
        var row: Int
        var column: Int
        /// "sixel" (ESC P … q) or "kitty" (ESC _ G).
        var kind: String
        /// sixel: the raster size in pixels from `"1;1;W;H`.
        var pixels: (width: Int, height: Int)?

        static func == (a: Placement, b: Placement) -> Bool {
            a.row == b.row && a.column == b.column && a.kind == b.kind && a.pixels?.width == b.pixels?.width
                && a.pixels?.height == b.pixels?.height
        }
    }

    /// Every `ESC 7 ESC [ r ; c H` followed by a sixel or kitty picture in `bytes`.
    static func placements(in bytes: [UInt8]) -> [Placement] {
        var found: [Placement] = []
        let text = String(decoding: bytes, as: UTF8.self)
        var rest = Substring(text)
        while let start = rest.range(of: "\u{1B}7\u{1B}[") {
            rest = rest[start.upperBound...]
            guard let h = rest.firstIndex(of: "H") else { break }
            let numbers = rest[..<h].split(separator: ";").compactMap { Int($0) }
            let after = rest[rest.index(after: h)...]
            guard numbers.count == 2 else { continue }
            if after.hasPrefix("\u{1B}P") {
                var pixels: (Int, Int)?
                if let q = after.firstIndex(of: "q"), after[after.index(after: q)...].hasPrefix("\"") {
                    let raster = after[after.index(q, offsetBy: 2)...].prefix { $0 == ";" || $0.isNumber }
                    let values = raster.split(separator: ";").compactMap { Int($0) }
                    if values.count == 4 { pixels = (values[2], values[3]) }
                }
                found.append(Placement(row: numbers[0] - 1, column: numbers[1] - 1, kind: "sixel", pixels: pixels))
            } else if after.hasPrefix("\u{1B}_G") {
                found.append(Placement(row: numbers[0] - 1, column: numbers[1] - 1, kind: "kitty", pixels: nil))
            }
        }
        return found
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool { bytes.firstRange(of: Array(text.utf8)) != nil }

    /// A sixel picture's start (DCS … q) or a kitty picture's (APC G with a=T).
    static func hasPicture(_ bytes: [UInt8]) -> Bool { !placements(in: bytes).isEmpty }

    /// Makes the app draw a frame that leaves the picture's cells as they are, and waits for it:
    /// another process adds a request, and the app, noticing the commit, draws the tab bar's new
    /// count. What the idle loop (its timers, its change checks) and that frame sent is then in
    /// the output since `mark`: a picture sent again on any of them would be there.
    static func frameElsewhere(_ t: FakeTerminal, since mark: Int) throws {
        let data = t.workDirectory.appendingPathComponent("data").path
        let added = try TmuxSession.spawnAndWait(
            [
                "/bin/sh", "-c",
                "XDG_DATA_HOME=\(TmuxSession.quote(data)) \(TmuxSession.quote(TmuxSession.binary.path)) inbox add --title 'Count the pallets' >/dev/null 2>&1",
            ], stdout: "/dev/null")
        #expect(added == 0, "inbox add from another process")
        try t.waitFor("the frame telling of the new request", since: mark) { !$0.isEmpty }
        t.settle()
    }

    /// Captures `shelf.png` as a Photos record, opens History and the record's detail, and waits
    /// for its thumbnail; returns the mark before the detail opened.
    static func openRecordWithAPhoto(_ t: FakeTerminal, waitingFor kind: String) throws -> Int {
        try PhotoPreviewEndToEndTests.gradientPNG(width: 160, height: 120).write(to: t.workDirectory.appendingPathComponent("shelf.png"))
        try t.waitFor("the Inbox") { contains($0, "Inbox") && contains($0, "History") }
        t.type("2")
        try t.waitFor("the kind picker") { contains($0, "Photos") }
        var mark = t.mark
        t.type("p")
        try t.waitFor("the photos step", since: mark) { contains($0, "Photos (0 of") }
        mark = t.mark
        t.type("shelf.png\r")
        try t.waitFor("the staged photo's picture in capture", since: mark) { placements(in: $0).contains { $0.kind == kind } }
        t.type("\r")
        try t.waitFor("review") { contains($0, "Ctrl-D to save") }
        mark = t.mark
        t.type("\u{04}")
        try t.waitFor("the save", since: mark) { contains($0, "Saved") }
        t.type("3")
        try t.waitFor("History", since: mark) { contains($0, "[ History") }
        t.settle()
        mark = t.mark
        t.type("\r")
        try t.waitFor("the record's picture", since: mark) { contains($0, "Record #") && placements(in: $0).contains { $0.kind == kind } }
        return mark
    }

    @Test func sixelIsDrawnOnceAndPaintedOverWhenTheTabChanges() throws {
        let t = try FakeTerminal(answers: .sixel, environment: ["NO_COLOR": ""])
        let opened = try Self.openRecordWithAPhoto(t, waitingFor: "sixel")
        t.settle()
        let shown = t.output(since: opened)
        let pictures = Self.placements(in: shown).filter { $0.kind == "sixel" }
        let picture = try #require(pictures.last)
        #expect(pictures.count == 1, "one picture for the record's one photo: \(pictures)")
        let pixels = try #require(picture.pixels, "a sixel with its raster size")
        // 10 × 20-pixel cells, as the terminal said: the picture fits its thumbnail box (4 rows at 80x24).
        #expect(pixels.width <= 12 * 10 && pixels.height <= 4 * 20 && pixels.width > 0)
        // Its cells were kept blank: nothing in the frame wrote over the picture after it.
        let afterPicture = Array(shown[(shown.firstRange(of: Array("\u{1B}7\u{1B}[\(picture.row + 1);\(picture.column + 1)H".utf8))?.upperBound ?? 0)...])
        #expect(!Self.hasPicture(afterPicture), "the picture written once")

        // Idle, then a frame that changes only the tab bar: nothing is sent again.
        let idle = t.mark
        try Self.frameElsewhere(t, since: idle)
        #expect(!Self.hasPicture(t.output(since: idle)), "a picture sent again while idle")

        // A tab switch: every cell the picture covered is painted again, and no picture comes back.
        let switched = t.mark
        t.type("1")
        try t.waitFor("the Inbox", since: switched) { Self.contains($0, "[ Inbox") }
        t.settle()
        let output = t.output(since: switched)
        #expect(!Self.hasPicture(output))
        let touches = ScreenTouches(output, rows: 24, columns: 80)
        let columns = (pixels.width + 9) / 10, rows = (pixels.height + 19) / 20
        var untouched: [String] = []
        for row in picture.row..<(picture.row + rows) {
            for column in picture.column..<(picture.column + columns) where !touches.isTouched(row: row, column: column) {
                untouched.append("\(row),\(column)")
            }
        }
        #expect(untouched.isEmpty, "cells under the sixel not painted over after the tab switch: \(untouched)")

        // Back to the record: the picture is drawn again; Ctrl-L clears and draws it again too.
        let back = t.mark
        t.type("3")
        try t.waitFor("the picture again", since: back) { Self.hasPicture($0) }
        t.settle()
        let repaint = t.mark
        t.type("\u{0C}")
        try t.waitFor("the picture after Ctrl-L", since: repaint) { Self.hasPicture($0) }
        t.type("q")
        #expect(t.waitForExit() == 0)
    }

    @Test func kittyPicturesAreDeletedWhenTheScreenChanges() throws {
        let t = try FakeTerminal(answers: .kitty, environment: ["NO_COLOR": ""])
        let opened = try Self.openRecordWithAPhoto(t, waitingFor: "kitty")
        t.settle()
        let picture = try #require(Self.placements(in: t.output(since: opened)).last)
        #expect(picture.kind == "kitty")
        // chafa's kitty picture, quiet (q=2) so the terminal's OK never arrives among the keys.
        #expect(Self.contains(t.output(since: opened), "\u{1B}_Ga=T,q=2,f=32"))

        let idle = t.mark
        try Self.frameElsewhere(t, since: idle)
        #expect(!Self.hasPicture(t.output(since: idle)), "a picture sent again while idle")

        // The help sheet covers part of it: the placement is deleted where it was.
        let help = t.mark
        t.type("?")
        try t.waitFor("the help sheet", since: help) { Self.contains($0, "Keys") }
        t.settle()
        #expect(Self.contains(t.output(since: help), "\u{1B}_Ga=d,d=P,x=\(picture.column + 1),y=\(picture.row + 1),q=2\u{1B}\\"))
        t.type("\u{1B}")
        try t.waitFor("the picture back after the sheet", since: help) { Self.placements(in: $0).contains { $0 == picture } }

        // A tab switch deletes it too, and draws nothing new.
        t.settle()
        let switched = t.mark
        t.type("1")
        try t.waitFor("the Inbox", since: switched) { Self.contains($0, "[ Inbox") }
        t.settle()
        let output = t.output(since: switched)
        #expect(Self.contains(output, "\u{1B}_Ga=d,d=P,x=\(picture.column + 1),y=\(picture.row + 1),q=2\u{1B}\\"))
        #expect(!Self.hasPicture(output))

        // Leaving the app deletes every picture it placed.
        t.type("3")
        try t.waitFor("the picture again", since: switched) { Self.hasPicture(Array($0.dropFirst(output.count))) }
        t.settle()
        let quit = t.mark
        t.type("q")
        #expect(t.waitForExit() == 0)
        #expect(Self.contains(t.output(since: quit), "\u{1B}_Ga=d,d=A,q=2\u{1B}\\"))
    }

    @Test func aTerminalWithoutSixelInItsOnlyAnswerGetsBlocks() throws {
        let t = try FakeTerminal(answers: .primaryAttributesOnly, environment: ["NO_COLOR": ""])
        let opened = try Self.openRecordWithAPhotoInBlocks(t)
        t.settle()
        let output = t.output(since: opened)
        #expect(!Self.hasPicture(t.everything), "no graphics for a terminal that lists none")
        #expect(!Self.contains(t.everything, "\u{1B}_Ga=T"))
        let blocks = String(decoding: output, as: UTF8.self).unicodeScalars.count { (0x2580...0x259F).contains($0.value) }
        #expect(blocks >= 10, "the thumbnail in block characters")
        t.type("q")
        #expect(t.waitForExit() == 0)
    }

    static func openRecordWithAPhotoInBlocks(_ t: FakeTerminal) throws -> Int {
        try PhotoPreviewEndToEndTests.gradientPNG(width: 160, height: 120).write(to: t.workDirectory.appendingPathComponent("shelf.png"))
        try t.waitFor("the Inbox") { contains($0, "Inbox") && contains($0, "History") }
        t.type("2")
        try t.waitFor("the kind picker") { contains($0, "Photos") }
        t.type("p")
        try t.waitFor("the photos step") { contains($0, "Photos (0 of") }
        t.type("shelf.png\r")
        try t.waitFor("the staged photo") { contains($0, "160×120") }
        t.type("\r")
        try t.waitFor("review") { contains($0, "Ctrl-D to save") }
        let mark = t.mark
        t.type("\u{04}")
        try t.waitFor("the save", since: mark) { contains($0, "Saved") }
        t.type("3")
        try t.waitFor("History", since: mark) { contains($0, "[ History") }
        t.settle()
        let opened = t.mark
        t.type("\r")
        try t.waitFor("the record", since: opened) { contains($0, "Record #") }
        return opened
    }
}
