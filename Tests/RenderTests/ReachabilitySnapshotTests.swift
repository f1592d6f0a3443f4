import CaptureMode
import Foundation
import SnapshotTesting
import Testing

@testable import Render
@testable import TabShell

/// While the database server cannot be reached, the heading of every screen says so: each tab,
/// a record, the sheets over them, a question, and capture; at 80x24 and at the minimum size.
@Suite struct ReachabilitySnapshotTests {
    static let sentence = "Cannot reach PostgreSQL at db.example:5432: the connection was lost."

    static func unreachable(_ state: AppState) -> AppState {
        var state = state
        state.storeReach = .unreachable(sentence)
        return state
    }

    /// The text of a frame's row.
    static func text(of frame: Frame, row: Int) -> String {
        (0..<frame.grid.width).map { frame.grid[row, $0].text }.joined()
    }

    static var screens: [(name: String, state: AppState)] {
        [
            ("inbox", Demo.state(.inbox)),
            ("history", Demo.state(.history)),
            ("record", Demo.state(.history, history: Demo.productDetail())),
            ("settings", Demo.state(.settings)),
            ("help", Demo.state(.inbox, presentation: .sheet(.help(HelpState(scrollOffset: 0))))),
            ("search", Demo.state(.history, presentation: Demo.search("40", results: 3))),
            ("question", Demo.state(.history, presentation: .alert(.confirmClearAll(count: 12), over: .none))),
            ("capture", Demo.state(.inbox, presentation: Demo.capture { $0.send(.kindChosen(.note)) })),
        ]
    }

    @Test(arguments: [(80, 24), (40, 12), (24, 8)])
    func everyScreenSaysSo(columns: Int, rows: Int) {
        // At the minimum size a question's box covers the whole screen, heading included.
        for (name, state) in Self.screens where !(name == "question" && rows < 12) {
            var state = Self.unreachable(state)
            state.size = ScreenSize(rows: rows, columns: columns)
            let frame = Screen.render(state, options: Demo.options)
            // The shell's heading row, or capture's rule under its title bar.
            let headingRows = (0..<2).map { Self.text(of: frame, row: $0) }.joined(separator: "\n")
            #expect(headingRows.contains("✗ "), "\(name) at \(columns)x\(rows):\n\(headingRows)")
            #expect(headingRows.contains("unreachable") || headingRows.contains("Cannot reach"), "\(name) at \(columns)x\(rows):\n\(headingRows)")
            let plain = Screen.render(state, options: Demo.plainOptions)
            #expect(Self.text(of: plain, row: 0).contains("! ") || Self.text(of: plain, row: 1).contains("! "), "a mark without colour: \(name)")
        }
    }

    /// The photo viewer has no heading: the notice takes the right of its facts' line.
    @Test(arguments: [(80, 24), (24, 8)])
    func theViewerSaysSoToo(columns: Int, rows: Int) throws {
        let photos = Demo.photos.map {
            ViewerPhoto(
                source: .stored(storedName: "stored-\($0.originalName)"), name: $0.originalName, format: $0.format,
                pixelWidth: $0.pixelWidth, pixelHeight: $0.pixelHeight, byteSize: $0.byteSize)
        }
        let viewer = try #require(PhotoViewerState(photos: photos, index: 0))
        var state = Self.unreachable(Demo.state(.history, columns: columns, rows: rows, history: Demo.productDetail()))
        state.presentation = .viewer(viewer, over: .none)
        let frame = Screen.render(state, options: Demo.options)
        let facts = Self.text(of: frame, row: rows - 2)
        #expect(facts.contains("✗ ") && (facts.contains("unreachable") || facts.contains("Cannot reach")), "\(columns)x\(rows): \(facts)")
        #expect(facts.hasPrefix(" 1/"), "the photo's place stays: \(facts)")
    }

    @Test func snapshots() {
        for (name, state) in Self.screens where ["inbox", "record", "help", "capture"].contains(name) {
            assertSnapshot(of: Screen.render(Self.unreachable(state), options: Demo.options), as: .gridText, named: "\(name)-80x24")
        }
        var narrow = Self.unreachable(Demo.state(.history, columns: 24, rows: 8, history: Demo.productDetail()))
        assertSnapshot(of: Screen.render(narrow, options: Demo.options), as: .gridText, named: "record-24x8")
        narrow.storeReach = .answering
        let back = Screen.render(narrow, options: Demo.options)
        #expect(!Self.text(of: back, row: 0).contains("unreachable"), "back: the heading is itself again")
    }
}

/// A status message longer than the line wraps above it rather than being cut: the notice a
/// second session of the same person gets (tabshell serve) reads whole at 80 columns and at the
/// minimum width.
@Suite struct StatusLineTests {
    static let secondSession = "You are connected in another session too: this one starts fresh and is not kept if it drops."

    @Test(arguments: [(80, 24), (40, 12), (24, 8)])
    func aLongNoticeReadsWhole(columns: Int, rows: Int) {
        var state = Demo.state(.inbox, columns: columns, rows: rows)
        state.status = StatusMessage(Self.secondSession)
        let frame = Screen.render(state, options: Demo.options)
        let screen = (0..<rows).map { ReachabilitySnapshotTests.text(of: frame, row: $0) }
        // The rows from the message's first word down to the hint line hold it all, uncut.
        let first = screen.firstIndex { $0.contains("You are connected") } ?? 0
        let hintRow = rows - 3
        let message = screen[first...hintRow].joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(message == Self.secondSession, "\(columns)x\(rows):\n\(screen.joined(separator: "\n"))")
        assertSnapshot(of: frame, as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func aShortMessageKeepsItsOneLine() {
        var state = Demo.state(.inbox, columns: 80, rows: 24)
        state.status = StatusMessage("Saved record #12.", kind: .success)
        let frame = Screen.render(state, options: Demo.options)
        #expect(ReachabilitySnapshotTests.text(of: frame, row: 21).contains("✓ Saved record #12."))
        #expect(!ReachabilitySnapshotTests.text(of: frame, row: 20).contains("Saved"))
    }
}
