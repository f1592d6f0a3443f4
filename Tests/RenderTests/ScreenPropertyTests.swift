import CaptureMode
import Domain
import TabShell
import Testing

@testable import Render

/// What must hold on every screen at every size: no crash, rows exactly as wide as the
/// terminal, and nothing from data that a terminal would interpret.
@Suite struct ScreenPropertyTests {
    static let sizes = [(80, 24), (40, 12), (24, 8), (132, 43), (33, 9)]

    /// A few screens that between them use every view, at every size up to 100x30.
    static let crashTestStates = Gallery.hostileStates().filter {
        [
            "inbox", "history", "history detail", "settings", "help", "barcode", "note", "alert over capture",
            "history photos detail", "search", "confirm delete",
        ].contains($0.name)
    }

    @Test(arguments: 0...30)
    func renderingNeverCrashesAtAnySize(rows: Int) {
        #expect(Self.crashTestStates.count == 11)
        for columns in 0...100 {
            for (name, state) in Self.crashTestStates {
                let frame = Screen.render(Gallery.resized(state, columns: columns, rows: rows), options: Demo.options)
                #expect(frame.grid.width == columns && frame.grid.height == rows, "\(name) at \(columns)x\(rows)")
                if let cursor = frame.cursor {
                    #expect(frame.grid.contains(row: cursor.row, column: cursor.column), "\(name) at \(columns)x\(rows)")
                }
            }
        }
    }

    @Test(arguments: [true, false])
    func everyRowIsExactlyTheTerminalWidth(unicode: Bool) {
        let options = unicode ? Demo.options : Demo.plainOptions
        for (name, state) in Gallery.hostileStates() {
            for (columns, rows) in Self.sizes + [(100, 30), (61, 17)] {
                let frame = Screen.render(Gallery.resized(state, columns: columns, rows: rows), options: options)
                #expect(frame.grid.cells.count == columns * rows)
                #expect(frame.structuralProblems.isEmpty, "\(name) at \(columns)x\(rows): \(frame.structuralProblems.prefix(3))")
            }
        }
    }

    @Test(arguments: [true, false])
    func hostileDataNeverReachesTheTerminal(unicode: Bool) {
        let options = unicode ? Demo.options : Demo.plainOptions
        for (name, state) in Gallery.hostileStates() {
            for (columns, rows) in Self.sizes {
                let frame = Screen.render(Gallery.resized(state, columns: columns, rows: rows), options: options)
                let unsafe = frame.grid.cells.flatMap(\.text.unicodeScalars).filter { scalar in
                    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                        || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
                        || [0x200E, 0x200F, 0x061C].contains(scalar.value)
                }
                #expect(unsafe.isEmpty, "\(name) at \(columns)x\(rows): \(unsafe.map { String($0.value, radix: 16) })")
            }
        }
    }

    @Test func hostileDataShowsAsPlaceholders() {
        var state = Demo.state(
            .inbox,
            inbox: Demo.inbox([
                InboxRequest(id: 1, title: "a\u{1B}[2Jb\u{07}", body: "", kind: .note, status: .pending, createdAt: Demo.now)
            ]))
        state.status = nil
        #expect(Screen.render(state, options: Demo.options).find("a␛[2Jb␇") != nil)
        #expect(Screen.render(state, options: Demo.plainOptions).find("a?[2Jb?") != nil)
    }

    @Test func asciiModeDrawsOnlyASCII() {
        for (name, state) in Gallery.asciiStates() {
            for (columns, rows) in Self.sizes {
                let frame = Screen.render(Gallery.resized(state, columns: columns, rows: rows), options: Demo.plainOptions)
                let nonASCII = Set(frame.grid.cells.map(\.text).filter { !$0.allSatisfy(\.isASCII) })
                #expect(nonASCII.isEmpty, "\(name) at \(columns)x\(rows): \(nonASCII)")
            }
        }
    }
}
