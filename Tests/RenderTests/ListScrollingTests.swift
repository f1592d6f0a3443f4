import CaptureMode
import Domain
import Foundation
import Render
import Scanning
import SnapshotTesting
import TabShell
import Testing

/// Every list keeps its highlighted row on screen and shows when more lies above or below
/// (at 24x8 the capture picker moved its highlight onto a row it did not draw, with
/// no mark). Each list at several small sizes, with the highlight on every row: the highlighted
/// row is drawn (its label, in the selected style), and when some rows are not drawn the screen
/// says so (▲/▼ at the list's edge, or a position such as 3/12 or 1-8 of 40).
@Suite struct ListScrollingTests {
    static let sizes: [(columns: Int, rows: Int)] = [(24, 8), (30, 9), (40, 10), (24, 12), (80, 8), (40, 12), (80, 24)]

    /// A list screen: the state with the highlight on `index`, and each row's label.
    struct Case: Sendable {
        var name: String
        var labels: [String]
        var state: @Sendable (Int, ScreenSize) -> AppState
    }

    static let stamp = Date(timeIntervalSince1970: 1_741_950_000)

    static let photos = (1...6).map { StagedPhoto(storedName: "p\($0).png", originalName: "P\($0)x.png", format: .png, pixelWidth: 4, pixelHeight: 3, byteSize: 99) }

    static let cases: [Case] = [
        Case(name: "capture picker", labels: CaptureKind.available.map(\.title)) { index, size in
            var capture = CaptureState()
            capture.pickerCursor = index
            return Demo.state(columns: size.columns, rows: size.rows, presentation: .fullScreenCapture(capture))
        },
        Case(name: "inbox", labels: (1...12).map { String(format: "Q%02d", $0) }) { index, size in
            var inbox = InboxState()
            let requests = (1...12).map {
                InboxRequest(id: Int64($0), title: String(format: "Q%02d", $0), body: "", kind: .barcode, status: .pending, createdAt: stamp)
            }
            _ = inbox.send(.loaded(InboxSnapshot(requests: requests, pendingCount: 12)), viewport: 1)
            var state = Demo.state(.inbox, columns: size.columns, rows: size.rows, inbox: inbox)
            for _ in 0..<index { _ = state.send(.listMoved(.down)) }
            return state
        },
        Case(name: "search results", labels: Demo.historyRows.prefix(12).map { $0.summary }) { index, size in
            var state = Demo.state(.history, columns: size.columns, rows: size.rows, presentation: Demo.search("4", results: 12))
            for _ in 0..<index { _ = state.send(.listMoved(.down)) }
            return state
        },
        Case(name: "staged photos", labels: photos.enumerated().map { "\($0.offset + 1). P\($0.offset + 1)x" }) { index, size in
            let presentation = Demo.capture(request: InboxRequest(id: 1, title: "Shelf", body: "", kind: .photos, status: .pending, createdAt: stamp)) {
                $0.photos = photos
                $0.photoCursor = index
            }
            return Demo.state(columns: size.columns, rows: size.rows, presentation: presentation)
        },
        Case(name: "settings", labels: SettingsRow.allCases.map(\.title)) { index, size in
            var state = Demo.state(.settings, columns: size.columns, rows: size.rows)
            for _ in 0..<index { _ = state.send(.listMoved(.down)) }
            return state
        },
    ]

    static func isMarked(_ text: String) -> Bool {
        text.contains("▲") || text.contains("▼")
            || text.range(of: #"\d+/\d+|\d+-\d+ of \d+"#, options: .regularExpression) != nil
    }

    /// The label as much of it as is sure to show at this width.
    static func shown(_ label: String, columns: Int) -> String { String(label.prefix(columns < 40 ? 3 : 6)) }

    @Test(arguments: cases.indices)
    func theHighlightIsOnScreenAndHiddenRowsAreMarked(caseIndex: Int) {
        let list = Self.cases[caseIndex]
        for size in Self.sizes {
            for index in list.labels.indices {
                let state = list.state(index, ScreenSize(rows: size.rows, columns: size.columns))
                let grid = Screen.render(state, options: Demo.options).grid
                let place = "\(list.name) at \(size.columns)x\(size.rows), row \(index)"
                let label = Self.shown(list.labels[index], columns: size.columns)
                let selectedRows = (0..<grid.height).filter { row in (0..<grid.width).contains { grid[row, $0].style == .selectedRow } }
                #expect(selectedRows.contains { grid.text(ofRow: $0).contains(label) }, "\(place): the highlighted row is not drawn\n\(grid.text)")
                let drawn = list.labels.filter { grid.text.contains(Self.shown($0, columns: size.columns)) }.count
                if drawn < list.labels.count {
                    #expect(Self.isMarked(grid.text), "\(place): \(list.labels.count - drawn) rows hidden without a mark\n\(grid.text)")
                }
            }
        }
    }

    @Test func thePickerAt24x8ScrollsAndMarks() {
        var capture = CaptureState()
        capture.pickerCursor = CaptureKind.available.count - 1
        let bottom = Demo.state(columns: 24, rows: 8, presentation: .fullScreenCapture(capture))
        assertSnapshot(of: Screen.render(bottom, options: Demo.options), as: .gridText, named: "last")
        assertSnapshot(of: Screen.render(bottom, options: Demo.plainOptions), as: .gridText, named: "last-ascii")
        capture.pickerCursor = 0
        let top = Demo.state(columns: 24, rows: 8, presentation: .fullScreenCapture(capture))
        assertSnapshot(of: Screen.render(top, options: Demo.options), as: .gridText, named: "first")
    }

    @Test func aBatchLongerThanTheScreenIsMarked() {
        let presentation = Demo.capture {
            _ = $0.send(.kindChosen(.batch))
            for code in ["4006381333931", "96385074", "036000291452", "9780306406157", "10012345678902"] {
                _ = $0.send(.textPasted(code))
            }
        }
        let grid = Screen.render(Demo.state(columns: 40, rows: 9, presentation: presentation), options: Demo.options).grid
        #expect(grid.text.contains("▼"), "\(grid.text)")
        #expect(grid.text.contains("10012345678902"), "the latest scan shows")
    }
}

extension ListScrollingTests {
    @Test func reviewFieldsCutByAShortScreenAreMarked() throws {
        let gs1 = try #require(try? BarcodeValidator.read("(01)09506000134352(17)201225(10)ABC123(21)SN42", options: ScanOptions(detectsLayout: false)).barcode.get())
        let presentation = Demo.capture {
            _ = $0.send(.kindChosen(.barcode))
            $0.barcode = gs1
            $0.phase = .review
        }
        let short = Screen.render(Demo.state(columns: 40, rows: 8, presentation: presentation), options: Demo.options).grid
        #expect(!short.text.contains("SN42"), "the serial is cut at 40x8\n\(short.text)")
        #expect(short.text.contains("▼"), "\(short.text)")
        let tall = Screen.render(Demo.state(columns: 80, rows: 24, presentation: presentation), options: Demo.options).grid
        #expect(tall.text.contains("SN42"))
        #expect(!tall.text.contains("▼"), "nothing hidden, no mark")
    }
}
