import CaptureMode
import Domain
import Foundation
import SnapshotTesting
import Testing

@testable import Render
@testable import TabShell

/// A record's detail never cuts a label into its value (`Expiry (1…2020-12-25`): the label
/// column is as wide as the longest label shown, and when values would be too narrow beside it,
/// each label stands on its own line with its value under it.
@Suite struct DetailLabelTests {
    /// A GS1 code whose labels are longer than "Captured": GTIN (01), Expiry (17), Batch/lot
    /// (10), a net weight.
    static let gs1Row = HistoryRow(
        id: 42, kind: .barcode, barcode: Barcode(value: "(01)09506000134352(17)201225(10)ABC123(3103)001250", symbology: .gs1ElementString),
        note: nil, requestID: 4, requestTitle: "Check the delivery from Rotterdam", createdAt: Demo.now.addingTimeInterval(-3_600),
        capturedBy: "ana", requester: "chef")

    static func state(_ row: HistoryRow, columns: Int, rows: Int, photos: [RecordPhoto]? = []) -> AppState {
        var history = Demo.history(cursor: 0)
        history.stack = [HistoryDetailState(record: row, photos: photos)]
        return Demo.state(.history, columns: columns, rows: rows, history: history)
    }

    @Test(arguments: [(80, 24), (40, 20), (24, 24)])
    func gs1Fields(columns: Int, rows: Int) {
        let frame = Screen.render(Self.state(Self.gs1Row, columns: columns, rows: rows), options: Demo.options)
        #expect(frame.find("Expiry (17)") != nil && frame.find("Batch/lot (10)") != nil, "labels whole")
        assertSnapshot(of: frame, as: .gridText, named: "\(columns)x\(rows)")
    }

    /// The rows whose text, from the labels' column, starts with `label` followed by a space or
    /// the end of the row: the label drawn whole, not run into a value.
    static func rowsShowing(_ label: String, in frame: Frame, column: Int) -> [Int] {
        let wanted = label.map(String.init)
        return (0..<frame.grid.height).filter { row in
            guard column + wanted.count <= frame.grid.width else { return false }
            let cells = (column..<(column + wanted.count)).map { frame.grid[row, $0].text }
            let next = column + wanted.count < frame.grid.width ? frame.grid[row, column + wanted.count].text : " "
            return cells == wanted && next == " "
        }
    }

    /// At every width from the minimum to a wide screen, every label of every record the
    /// galleries hold (GS1, batch, product with photos, hostile text) is on screen whole.
    @Test func noLabelIsEverCut() {
        let details =
            [HistoryDetailState(record: Self.gs1Row, photos: [])]
            + (Gallery.states() + Gallery.hostileStates()).compactMap(\.state.history.detail)
            + [Demo.productDetail()].compactMap(\.detail)
        #expect(details.count >= 4)
        for detail in details {
            let wide = HistoryDetailLayout(layout: Layout(size: ScreenSize(rows: 24, columns: 300)))
            let labels = Set(wide.lines(of: detail, glyphs: .unicode, now: nil).map(\.label).filter { !$0.isEmpty })
            #expect(labels.contains("Kind") && labels.contains("Captured"))
            for columns in 24...130 {
                let layout = HistoryDetailLayout(layout: Layout(size: ScreenSize(rows: 24, columns: columns)))
                // Tall enough for every line: nothing scrolled away.
                var state = Self.state(detail.record, columns: columns, rows: 24, photos: detail.photos)
                state.history.stack = [detail]
                state.size = ScreenSize(rows: layout.lineCount(of: detail) + 8, columns: columns)
                let frame = Screen.render(state, options: Demo.options)
                // The labels' column: the content's margin and the pointer's gutter.
                let column = 1 + HistoryDetailLayout.gutterWidth
                for label in labels where TextWidth.of(label) <= layout.textWidth {
                    #expect(!Self.rowsShowing(label, in: frame, column: column).isEmpty, "record \(detail.record.id) at \(columns) columns: \"\(label)\" is cut")
                }
            }
        }
    }

    /// Capture's review lists the same labels with the same rule: whole at every width.
    @Test func reviewLabelsAreWholeToo() {
        let barcode = Self.gs1Row.barcode
        let presentation = Demo.capture {
            _ = $0.send(.kindChosen(.barcode))
            $0.barcode = barcode
            $0.phase = .review
        }
        let labels = ["Kind", "Code", "Request"] + (barcode?.fields.map(\.label) ?? [])
        for columns in 24...100 {
            let state = Demo.state(.inbox, columns: columns, rows: 40, presentation: presentation)
            let frame = Screen.render(state, options: Demo.options)
            for label in labels where TextWidth.of(label) <= columns - 4 {
                #expect(!Self.rowsShowing(label, in: frame, column: 1 + Table.gutterWidth).isEmpty, "review at \(columns) columns: \"\(label)\" is cut")
            }
        }
        let narrow = Screen.render(Demo.state(.inbox, columns: 24, rows: 24, presentation: presentation), options: Demo.options)
        assertSnapshot(of: narrow, as: .gridText, named: "review-24x24")
    }

    @Test func labelsStandOnTheirOwnLinesWhenValuesWouldBeTooNarrow() {
        let narrow = HistoryDetailLayout(layout: Layout(size: ScreenSize(rows: 8, columns: 24)))
        let detail = HistoryDetailState(record: Self.gs1Row, photos: [])
        #expect(narrow.columns(of: detail).stacked)
        let lines = narrow.lines(of: detail, glyphs: .unicode, now: nil)
        let expiry = lines.firstIndex { $0.label == "Expiry (17)" }
        #expect(expiry.map { lines[$0].parts.isEmpty && lines[$0 + 1].parts.map(\.text) == ["2020-12-25"] } == true, "the value under its label")
        let wide = HistoryDetailLayout(layout: Layout(size: ScreenSize(rows: 24, columns: 80)))
        #expect(!wide.columns(of: detail).stacked)
        #expect(wide.columns(of: detail).label == TextWidth.of("Net weight (kg) (3103)") + 2, "as wide as the longest label")
    }
}

/// A Batch record's lines keep their count and symbology at every width: the count is what tells
/// `4006381333931 ×2` from a single scan, so a value that wraps (a GS1 line's fields) or a
/// narrow screen never drops it.
@Suite struct BatchDetailCountTests {
    /// A GS1 line with a net weight, a code scanned twice and an EAN-8.
    static func detail() -> HistoryDetailState {
        let row = HistoryRow(
            id: 7, kind: .batch, barcode: nil, note: nil, requestID: nil, requestTitle: nil, createdAt: Demo.now.addingTimeInterval(-600),
            capturedBy: "ana", batchCodes: 3, batchScans: 4)
        var detail = HistoryDetailState(record: row, photos: [])
        detail.lines = [
            BatchLine(barcode: Barcode(value: "(01)09506000134352(3103)000189", symbology: .gs1128)),
            BatchLine(barcode: Barcode(value: "4006381333931", symbology: .ean13), quantity: 2),
            BatchLine(barcode: Barcode(value: "96385074", symbology: .ean8)),
        ]
        return detail
    }

    static func frame(columns: Int) -> Frame {
        let detail = Self.detail()
        let layout = HistoryDetailLayout(layout: Layout(size: ScreenSize(rows: 24, columns: columns)))
        var state = DetailLabelTests.state(detail.record, columns: columns, rows: 24)
        state.history.stack = [detail]
        // Tall enough for every line: nothing scrolled away.
        state.size = ScreenSize(rows: layout.lineCount(of: detail) + 8, columns: columns)
        return Screen.render(state, options: Demo.options)
    }

    @Test(arguments: [24, 30, 40, 44, 80, 120])
    func everyLineShowsItsCount(columns: Int) {
        assertSnapshot(of: Self.frame(columns: columns), as: .gridText, named: "batch-\(columns)")
    }

    /// At every width from the minimum to a wide screen, each line's count and symbology are on
    /// screen, after its code and before the next line's.
    @Test func noCountIsEverDropped() throws {
        let lines = try #require(Self.detail().lines)
        for columns in 24...130 {
            let frame = Self.frame(columns: columns)
            var after = 0
            for line in lines {
                let remark = "\u{00D7}\(line.quantity)  \(line.barcode.symbology.title)"
                let start = String(line.barcode.summary.prefix { $0 != " " })
                let code = (after..<frame.grid.height).first { frame.find(start, inRow: $0) != nil }
                let count = code.flatMap { code in (code..<frame.grid.height).first { frame.find(remark, inRow: $0) != nil } }
                #expect(code != nil && count != nil, "\(columns) columns: \(line.barcode.value) shows no \(remark)")
                after = (count ?? after) + 1
            }
        }
    }
}
