import Foundation
import TestSupport
import Testing

/// Photo previews through the real binary in tmux: thumbnails in capture, on review and in a
/// record's detail; the viewer with ← → and Esc; a resize; a broken photo's sentence; NO_COLOR.
@Suite(.serialized, .tags(.e2e))
struct PhotoPreviewEndToEndTests {
    /// A PNG with a colour gradient (red across, green down), so a preview has shapes and colours.
    static func gradientPNG(width: Int, height: Int) -> Data {
        typealias P = PhotoCaptureEndToEndTests
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xff), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return be32(body.count) + typed + be32(Int(P.crc32(typed)))
        }
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width {
                raw += [UInt8(255 * x / max(1, width - 1)), UInt8(255 * y / max(1, height - 1)), (x / 8 + y / 8) % 2 == 0 ? 40 : 200]
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let block = Array(raw[offset..<min(raw.count, offset + 65535)])
            offset += block.count
            let final: UInt8 = offset >= raw.count ? 1 : 0
            zlib += [final, UInt8(block.count & 0xff), UInt8(block.count >> 8), UInt8(~block.count & 0xff), UInt8((~block.count >> 8) & 0xff)] + block
        } while offset < raw.count
        zlib += be32(Int(P.adler32(raw)))
        let header = be32(width) + be32(height) + [8, 2, 0, 0, 0]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", []))
    }

    /// Cells drawn with block elements (U+2580–U+259F): what a preview in blocks mode is made of.
    static func blockCount(_ screen: String) -> Int {
        screen.unicodeScalars.count { (0x2580...0x259F).contains($0.value) }
    }

    /// The colour parameters of every SGR sequence in `text` (30–37, 38, 40–47, 48, 90–97, 100–107).
    static func colourParameters(_ text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "\u{1B}[") {
            rest = rest[start.upperBound...]
            guard let end = rest.firstIndex(where: { !("0"..."9").contains($0) && $0 != ";" }) else { break }
            if rest[end] == "m" {
                for parameter in rest[..<end].split(separator: ";") {
                    guard let value = Int(parameter) else { continue }
                    if (30...38).contains(value) || (40...48).contains(value) || (90...97).contains(value) || (100...107).contains(value) {
                        found.append(String(parameter))
                    }
                }
            }
            rest = rest[end...]
        }
        return found
    }

    static let damaged = "This photo is damaged: it ends early."

    /// Each line of `capture-pane -p -e` as cells: the character with its foreground and
    /// background colour. Blanks at a line's end are dropped, coloured or not: curses may erase
    /// them (ECH/EL with the background colour) instead of writing spaces, and tmux leaves
    /// erased cells out of a capture, so the same screen reads differently by how it was drawn.
    static func colouredCells(_ text: String) -> [[String]] {
        var foreground = "", background = ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var cells: [String] = []
            var scalars = Array(line.unicodeScalars)[...]
            while let scalar = scalars.first {
                scalars = scalars.dropFirst()
                guard scalar == "\u{1B}", scalars.first == "[" else {
                    cells.append("\(scalar)|\(foreground)|\(background)")
                    continue
                }
                scalars = scalars.dropFirst()
                var parameters = ""
                while let next = scalars.first, next == ";" || ("0"..."9").contains(Character(next)) {
                    parameters.unicodeScalars.append(next)
                    scalars = scalars.dropFirst()
                }
                guard scalars.first == "m" else { continue }
                scalars = scalars.dropFirst()
                var values = parameters.split(separator: ";").compactMap { Int($0) }[...]
                if values.isEmpty { values = [0] }
                while let value = values.popFirst() {
                    switch value {
                    case 0:
                        foreground = ""
                        background = ""
                    case 39: foreground = ""
                    case 49: background = ""
                    case 30...37, 90...97: foreground = "\(value)"
                    case 40...47, 100...107: background = "\(value)"
                    case 38, 48:
                        guard values.first == 5 else { continue }
                        values = values.dropFirst()
                        let index = values.popFirst().map(String.init) ?? ""
                        if value == 38 { foreground = "5;\(index)" } else { background = "5;\(index)" }
                    default: break
                    }
                }
            }
            while let last = cells.last, last.hasPrefix(" |") { cells.removeLast() }
            return cells
        }
    }

    @Test func thumbnailsTheViewerAndRefusesABrokenPhoto() throws {
        // `swift test` runs with NO_COLOR=1 in its environment; an empty value means colour.
        let s = try TabShellEndToEndTests.launch(environment: ["NO_COLOR": ""])
        let png = Self.gradientPNG(width: 160, height: 120)
        try png.write(to: s.workDirectory.appendingPathComponent("shelf.png"))
        try png.prefix(png.count / 3).write(to: s.workDirectory.appendingPathComponent("broken.png"))
        try s.waitFor(text: "[ Inbox")

        // Capture: the thumbnail appears beside the staged photo, in colour.
        try s.press("2", "p")
        try s.waitFor(text: "Photos (0 of")
        try s.type("shelf.png")
        let entered = Date()
        try s.press("Enter")
        try s.waitFor("a thumbnail in capture") { $0.contains("160×120") && Self.blockCount($0) >= 20 }
        print("preview e2e: Enter to thumbnail on screen (copy, decode, draw; polled every 50 ms) \(Int(Date().timeIntervalSince(entered) * 1000)) ms")
        let coloured = try s.tmux(["capture-pane", "-p", "-e", "-t", s.name])
        #expect(coloured.contains("\u{1B}[38;5;") && coloured.contains("\u{1B}[48;5;"), "256-colour cells")

        // A broken file is refused where it is added, with its sentence; nothing is staged.
        try s.type("broken.png")
        try s.press("Enter")
        try s.waitFor("the broken photo refused") { $0.contains("broken.png was not added") && $0.contains(Self.damaged) }
        try s.waitFor(text: "Photos (1 of")

        // F3 shows the staged photo full screen; Esc back.
        try s.press("F3")
        try s.waitFor("the photo full screen") { $0.contains("1/1") && Self.blockCount($0) > 200 }
        try s.press("Escape")
        try s.waitFor(text: "Photos (1 of")

        // The refused path stays in the field to be corrected; emptied, Enter goes on to review
        // (Backspace on the emptied field takes no photo away).
        for _ in 0..<("broken.png".count + 2) { try s.press("BSpace") }
        try s.waitFor("the emptied field") { $0.contains("File [ ") && $0.contains("1. shelf.png") }
        // Review shows the thumbnail too; Done saves.
        try s.press("Enter")
        try s.waitFor("review with its thumbnail") { $0.contains("Press Enter or Ctrl-D to save") && Self.blockCount($0) >= 20 }
        try s.press("C-d")
        try s.waitFor(text: "Saved photos")

        // History: the record's detail has the thumbnail; Enter views.
        try s.press("3")
        try s.waitFor(text: "[ History")
        try s.press("Enter")
        try s.waitFor("the detail's thumbnail") { $0.contains("Record #") && Self.blockCount($0) >= 20 }
        try s.press("Enter")
        try s.waitFor("the viewer") { $0.contains("1/1  shelf.png") && Self.blockCount($0) > 200 }

        // A resize draws the picture again at the new size.
        try s.resize(columns: 100, rows: 30)
        try s.waitFor("the viewer at 100x30") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return screen.contains("1/1  shelf.png") && lines.count >= 30 && Self.blockCount(screen) > 400
        }
        try s.press("Escape")
        try s.waitFor(text: "Record #")
        // Nothing of the viewer is left behind: the screen equals its own full repaint.
        Thread.sleep(forTimeInterval: 0.3)
        let afterViewer = try s.tmux(["capture-pane", "-p", "-e", "-t", s.name])
        try s.press("C-l")
        Thread.sleep(forTimeInterval: 0.5)
        let repainted = try s.tmux(["capture-pane", "-p", "-e", "-t", s.name])
        let cells = (after: Self.colouredCells(afterViewer), repainted: Self.colouredCells(repainted))
        #expect(cells.after == cells.repainted, "the screen after leaving the viewer differs from its repaint")
        #expect(cells.after.joined().contains { $0.contains("5;") }, "the thumbnails are in colour")

        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
        let cache = s.workDirectory.appendingPathComponent("cache/tabshell/previews")
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []
        #expect(cached.contains { $0.hasSuffix(".preview") }, "previews kept in $XDG_CACHE_HOME/tabshell/previews")
    }

    @Test func noColorDrawsPreviewsWithoutColours() throws {
        let s = try TabShellEndToEndTests.launch(environment: ["NO_COLOR": "1"])
        try Self.gradientPNG(width: 160, height: 120).write(to: s.workDirectory.appendingPathComponent("shelf.png"))
        try s.waitFor(text: "[ Inbox")
        try s.press("2", "p")
        try s.waitFor(text: "Photos (0 of")
        try s.type("shelf.png")
        try s.press("Enter")
        try s.waitFor("a monochrome thumbnail") { $0.contains("160×120") && Self.blockCount($0) >= 10 }
        try s.press("F3")
        try s.waitFor("the viewer") { $0.contains("1/1") && Self.blockCount($0) > 100 }
        let screen = try s.tmux(["capture-pane", "-p", "-e", "-t", s.name])
        #expect(Self.colourParameters(screen).isEmpty, "colour sequences under NO_COLOR: \(Set(Self.colourParameters(screen)).sorted())")
        try s.press("Escape", "Escape")
        try s.waitFor(text: "Discard")
        try s.press("y")
        try s.waitFor(text: "[ Inbox")
        try s.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(s)
    }
}
