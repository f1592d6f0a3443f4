import CaptureMode
import Render
import SnapshotTesting
import TabShell
import Testing

/// Reviewed screens of capture mode, one per phase, plus errors, the scan toast and wide text.
@Suite struct CaptureSnapshotTests {
    private func render(_ presentation: Presentation, columns: Int = 80, rows: Int = 24, options: RenderOptions = Demo.options) -> Frame {
        Screen.render(Demo.state(columns: columns, rows: rows, presentation: presentation), options: options)
    }

    @Test(arguments: [(80, 24), (40, 12), (24, 8)])
    func picker(columns: Int, rows: Int) {
        let presentation = Demo.capture { _ = $0.send(.pickerCursorMoved(by: 1)) }
        assertSnapshot(of: render(presentation, columns: columns, rows: rows), as: .gridText, named: "\(columns)x\(rows)")
    }

    /// `?`/F1 in capture at 40x12: the list of keys is longer than the screen; ↓ and End
    /// scroll it like the help sheet, with its position at the bottom.
    @Test func keysScrollAt40x12() {
        var state = Demo.state(columns: 40, rows: 12, presentation: Demo.capture { _ = $0.send(.kindChosen(.photos)) })
        _ = state.send(KeyMap.action(for: .function(1), in: state)!)
        let top = Screen.render(state, options: Demo.options)
        assertSnapshot(of: top, as: .gridText, named: "top")
        _ = state.send(KeyMap.action(for: .end, in: state)!)
        let bottom = Screen.render(state, options: Demo.options)
        #expect(top.grid != bottom.grid)
        #expect(bottom.find("Repaint the screen") != nil && top.find("Repaint the screen") == nil, "the last key (Ctrl-L) shows at the end only")
        assertSnapshot(of: bottom, as: .gridText, named: "end")
    }

    @Test func pickerWithNotice() {
        // Done before a kind is chosen: the picker says what is missing.
        let presentation = Demo.capture { _ = $0.send(.doneTapped) }
        assertSnapshot(of: render(presentation, columns: 40, rows: 12), as: .gridText)
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func barcodeWithError(columns: Int, rows: Int) {
        let presentation = Demo.capture(request: Demo.requests[0]) {
            _ = $0.send(.textTyped("4006381333932"))
            _ = $0.send(.enterPressed)
        }
        assertSnapshot(of: render(presentation, columns: columns, rows: rows), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func barcodeScrollsToKeepTheCursorInView() {
        let presentation = Demo.capture {
            _ = $0.send(.kindChosen(.barcode))
            _ = $0.send(.textTyped("urn:epc:id:sscc:0614141.1234567890-LONG-PAYLOAD"))
            for _ in 0..<5 { _ = $0.send(.cursorMoved(.left)) }
        }
        assertSnapshot(of: render(presentation, columns: 40, rows: 12), as: .gridText)
    }

    @Test func barcodeToast() {
        let presentation = Demo.capture(request: Demo.requests[0]) { _ = $0.send(.textPasted("4006381333931")) }
        assertSnapshot(of: render(presentation), as: .gridText, named: "unicode")
        assertSnapshot(of: render(presentation, columns: 40, rows: 12, options: Demo.plainOptions), as: .gridText, named: "ascii-40x12")
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func noteWithWideCharacters(columns: Int, rows: Int) {
        let presentation = Demo.capture {
            _ = $0.send(.kindChosen(.note))
            _ = $0.send(.textTyped("棚3の在庫: りんご 12箱 🍎 and 👨‍👩‍👧 family packs, counted twice by the morning shift."))
            _ = $0.send(.enterPressed)
            _ = $0.send(.textTyped("Second line: 재고 확인"))
            _ = $0.send(.cursorMoved(.up))
        }
        assertSnapshot(of: render(presentation, columns: columns, rows: rows), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func noteScrollsToTheCursor() {
        let presentation = Demo.capture {
            _ = $0.send(.kindChosen(.note))
            for line in 1...12 {
                _ = $0.send(.textTyped("Line \(line) of a long note"))
                _ = $0.send(.enterPressed)
            }
        }
        assertSnapshot(of: render(presentation, columns: 40, rows: 12), as: .gridText)
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func review(columns: Int, rows: Int) {
        let barcode = Demo.capture(request: Demo.requests[0]) {
            _ = $0.send(.textPasted("4006381333931"))
            _ = $0.send(.autoAdvanceElapsed(token: $0.autoAdvanceToken))
        }
        assertSnapshot(of: render(barcode, columns: columns, rows: rows), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func reviewWithoutRequestInASCII() {
        let presentation = Demo.capture {
            _ = $0.send(.kindChosen(.barcode))
            _ = $0.send(.textPasted("036000291452"))
            _ = $0.send(.enterPressed)
        }
        assertSnapshot(of: render(presentation, columns: 40, rows: 12, options: Demo.plainOptions), as: .gridText)
    }

    @Test(arguments: [(80, 24), (40, 12)])
    func noteCommitFailed(columns: Int, rows: Int) {
        let note = Demo.capture(request: Demo.requests[2]) {
            _ = $0.send(.textTyped("Cold room at 3.5 °C.\nDoor seal fine; checked by the night shift."))
            _ = $0.send(.doneTapped)
            _ = $0.send(.commitFailed("The database is locked by another session; try Done again."))
        }
        assertSnapshot(of: render(note, columns: columns, rows: rows), as: .gridText, named: "\(columns)x\(rows)")
    }

    @Test func saving() {
        let presentation = Demo.capture {
            _ = $0.send(.kindChosen(.barcode))
            _ = $0.send(.textPasted("96385074"))
            _ = $0.send(.doneTapped)
        }
        assertSnapshot(of: render(presentation, columns: 40, rows: 12), as: .gridText)
    }

    @Test func alertOverCapture() {
        let presentation = Presentation.alert(
            Alert(title: "Discard 2 photos?", message: "Closing now deletes the staged photos."),
            over: Demo.capture { _ = $0.send(.kindChosen(.note)) }
        )
        assertSnapshot(of: render(presentation, columns: 40, rows: 12), as: .gridText)
    }
}
