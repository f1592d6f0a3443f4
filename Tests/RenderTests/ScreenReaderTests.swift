import CaptureMode
import Domain
import Foundation
import Scanning
import SnapshotTesting
import TestSupport
import Testing

@testable import Render
@testable import TabShell

/// Screen-reader mode: the cursor on what has focus, the announcement line under the
/// app, words instead of box drawing and symbols.
@Suite struct ScreenReaderTests {
    static let options = RenderOptions(unicode: true, color: true, now: Demo.now, screenReader: true)

    private func render(_ state: AppState) -> Frame {
        Screen.render(state, options: Self.options)
    }

    /// The cursor's row as text, and the cell under the cursor.
    private func cursorLine(_ frame: Frame) throws -> (text: String, cell: String) {
        let cursor = try #require(frame.cursor)
        return (frame.grid.text(ofRow: cursor.row), frame.grid[cursor.row, cursor.column].text)
    }

    private func announcement(_ frame: Frame) -> String {
        frame.grid.text(ofRow: frame.grid.height - 1).trimmingCharacters(in: .whitespaces)
    }

    /// The announcement as the screen shows it, however many rows it took: its rows, read
    /// from the frame, joined as one sentence.
    private func wrappedAnnouncement(of state: AppState) -> String {
        let frame = render(state)
        let count = Screen.announcementLines(for: state, context: RenderContext(options: Self.options)).count
        return ((frame.grid.height - count)..<frame.grid.height)
            .map { frame.grid.text(ofRow: $0).trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }

    // MARK: - The frame

    @Test func theAppGetsOneRowLessAndTheLastRowAnnounces() {
        let terminal = ScreenSize(rows: 24, columns: 80)
        let app = ScreenReader.appSize(terminal: terminal, options: Self.options)
        #expect(app == ScreenSize(rows: 23, columns: 80))
        #expect(ScreenReader.appSize(terminal: terminal, options: Demo.options) == terminal)
        let frame = render(Demo.state(.inbox, columns: 80, rows: app.rows))
        #expect(frame.grid.height == 24 && frame.grid.width == 80)
        #expect(announcement(frame) == "Inbox tab, 5 requests, 3 pending.")
    }

    @Test func normalModeIsUntouched() {
        for (name, state) in Gallery.asciiStates() {
            let frame = Screen.render(state, options: Demo.options)
            #expect(frame.grid.height == state.size.rows, "\(name)")
        }
        #expect(Screen.render(Demo.state(.inbox), options: Demo.options).cursor == nil)
    }

    @Test func theModeComesFromTheFlagTheEnvironmentOrTheConfig() {
        #expect(ScreenReader.isOn(flag: true, environment: [:]))
        #expect(!ScreenReader.isOn(flag: false, environment: [:]))
        #expect(ScreenReader.isOn(flag: false, environment: ["TABSHELL_SCREEN_READER": "1"]))
        #expect(ScreenReader.isOn(flag: false, environment: ["TABSHELL_SCREEN_READER": "yes"]))
        #expect(ScreenReader.isOn(flag: false, environment: [:], configured: true))
        #expect(!ScreenReader.isOn(flag: false, environment: ["TABSHELL_SCREEN_READER": "0"], configured: true))
        #expect(ScreenReader.isOn(flag: true, environment: ["TABSHELL_SCREEN_READER": "0"]))
        #expect(ScreenReader.isOn(flag: false, environment: ["TABSHELL_SCREEN_READER": "maybe"], configured: true))
    }

    // MARK: - The cursor on the selected row of every list

    @Test(arguments: 0..<5)
    func inboxCursorIsOnTheSelectedRequest(index: Int) throws {
        let frame = render(Demo.state(.inbox, rows: 23, inbox: Demo.inbox(cursor: index)))
        let line = try cursorLine(frame)
        #expect(line.cell == ">")
        #expect(line.text.contains(Demo.requests[index].title))
    }

    @Test(arguments: [0, 3, 17])
    func historyCursorIsOnTheSelectedRecord(index: Int) throws {
        let history = Demo.history(Array(Demo.historyRows.prefix(20)), total: 20, cursor: index, scrollOffset: max(0, index - 10))
        let frame = render(Demo.state(.history, rows: 23, history: history))
        let line = try cursorLine(frame)
        #expect(line.cell == ">")
        let row = Demo.historyRows[index]
        #expect(line.text.contains(row.barcode?.value ?? String(row.note?.prefix(10) ?? "")))
        #expect(frame.find("\(index + 1) of 20") != nil)
    }

    @Test(arguments: [0, 5, SettingsRow.allCases.count - 1])
    func settingsCursorIsOnTheSelectedSetting(index: Int) throws {
        var state = Demo.state(.settings, rows: 23)
        state.settingsScreen.list = ListPosition(cursor: index, scrollOffset: max(0, index - state.layout.settingsListRows + 1))
        let line = try cursorLine(render(state))
        #expect(line.cell == ">")
        #expect(line.text.contains(SettingsRow.allCases[index].title))
    }

    @Test func searchCursorIsInTheQueryUntilTheArrowsMoveIntoTheResults() throws {
        var search = SearchState(query: "")
        _ = search.send(.edited(.typed("pallet")), viewport: 10)
        _ = search.send(.resultsLoaded(query: "pallet", rows: Array(Demo.historyRows.prefix(6))), viewport: 10)
        var frame = render(Demo.state(.history, rows: 23, presentation: .sheet(.search(search))))
        var line = try cursorLine(frame)
        #expect(line.text.contains("Find [pallet"))
        let field = try #require(frame.find("pallet"))
        #expect(frame.cursor == CursorPosition(row: field.row, column: field.column + 6))
        #expect(announcement(frame).contains("6 records match"))

        _ = search.send(.input(.moved(.down)), viewport: 10)
        _ = search.send(.input(.moved(.down)), viewport: 10)
        frame = render(Demo.state(.history, rows: 23, presentation: .sheet(.search(search))))
        line = try cursorLine(frame)
        #expect(line.cell == ">")
        #expect(announcement(frame).hasSuffix("6 records match. Result 3 of 6."))
        #expect(line.text.contains(Demo.historyRows[2].barcode?.value ?? "?"))

        _ = search.send(.edited(.typed("s")), viewport: 10)
        frame = render(Demo.state(.history, rows: 23, presentation: .sheet(.search(search))))
        #expect(try cursorLine(frame).text.contains("Find [pallets"))
    }

    @Test(arguments: [0, 2, 4])
    func capturePickerCursorIsOnTheHighlightedKind(index: Int) throws {
        let presentation = Demo.capture { capture in
            for _ in 0..<index { _ = capture.send(.pickerCursorMoved(by: 1)) }
        }
        let line = try cursorLine(render(Demo.state(rows: 23, presentation: presentation)))
        #expect(line.cell == ">")
        #expect(line.text.contains(CaptureKind.available[index].title))
    }

    @Test func aRecordsPhotoCursorIsOnTheHighlightedPhoto() throws {
        var history = Demo.history()
        history.stack = [HistoryDetailState(record: Demo.historyRows[3], photos: Demo.photos, photoCursor: 1)]
        let state = Demo.state(.history, rows: 23, history: history)
        let frame = render(state)
        let cursor = try #require(frame.cursor)
        #expect(cursor.row < 22)
    }

    // MARK: - Dialogs and text fields

    @Test func alertCursorIsOnItsFocusedButton() throws {
        let alert = Alert.confirmDeletion(of: Demo.historyRows[0], photoCount: 2)
        let frame = render(Demo.state(.history, rows: 23, presentation: .alert(alert, over: .none)))
        let cursor = try #require(frame.cursor)
        let text = frame.grid.text(ofRow: cursor.row)
        let focused = alert.buttons[alert.defaultButton].title
        #expect(frame.grid[cursor.row, cursor.column].text == "[")
        let label = text.dropFirst(cursor.column)
        #expect(label.hasPrefix("[ \(focused)"))
        #expect(text.contains("> [ \(focused)"))
        let said = wrappedAnnouncement(of: Demo.state(.history, rows: 23, presentation: .alert(alert, over: .none)))
        #expect(said.hasPrefix("Alert: \(alert.title)"))
        #expect(said.contains("\(focused) focused"))
    }

    /// A row read aloud is the alert's alone: its rows are blank across the screen behind it,
    /// so no word of the list underneath joins them.
    @Test func anAlertsRowsHoldOnlyTheAlert() throws {
        let alert = Alert.confirmDeletion(of: Demo.historyRows[0], photoCount: nil)
        let frame = render(Demo.state(.history, rows: 23, presentation: .alert(alert, over: .none)))
        let title = try #require(frame.find("Delete record #"))
        let buttons = try #require(frame.cursor).row
        #expect(buttons > title.row)
        for row in (title.row - 1)...(buttons + 1) {
            let text = frame.grid.text(ofRow: row)
            #expect(!text.contains("Barcode") && !text.contains("Note ") && !text.contains(" ago"), "row \(row): \(text)")
        }
        // The same screen in normal mode keeps the list beside the box.
        let normal = Screen.render(Demo.state(.history, rows: 23, presentation: .alert(alert, over: .none)), options: Demo.options)
        #expect(((title.row - 1)...(buttons + 1)).contains { normal.grid.text(ofRow: $0).contains("Barcode") || normal.grid.text(ofRow: $0).contains("Note") })
    }

    @Test func anAlertThatOnlyTellsHasItsOKFocusedAndMarked() throws {
        let frame = render(Demo.state(.inbox, rows: 23, presentation: .alert(.requestRequired, over: .none)))
        let cursor = try #require(frame.cursor)
        let text = frame.grid.text(ofRow: cursor.row)
        #expect(text.dropFirst(cursor.column).hasPrefix("["))
        #expect(text.contains("> ["))
    }

    @Test func captureCloseQuestionHasKeepEditingFocused() throws {
        let presentation = Demo.capture { capture in
            _ = capture.send(.kindChosen(.note))
            _ = capture.send(.textTyped("ab"))
            _ = capture.send(.closeTapped)
        }
        let frame = render(Demo.state(rows: 23, presentation: presentation))
        let cursor = try #require(frame.cursor)
        #expect(frame.grid.text(ofRow: cursor.row).dropFirst(cursor.column).hasPrefix("[ Keep editing"))
        let said = "Alert: Discard this capture? Keep editing focused; buttons Keep editing (n), Discard (y). Close throws away the note. Nothing is saved."
        #expect(Announcement.text(for: Demo.state(rows: 23, presentation: presentation), context: RenderContext(options: Self.options)) == said)
        // Longer than a row: wrapped at spaces, never cut, and the question's box stays above it.
        #expect(wrappedAnnouncement(of: Demo.state(rows: 23, presentation: presentation)) == said)
        let buttons = try #require(frame.find("Discard (y)"))
        let lines = Screen.announcementLines(for: Demo.state(rows: 23, presentation: presentation), context: RenderContext(options: Self.options))
        #expect(buttons.row < frame.grid.height - lines.count)
    }

    /// At 40 columns too: every word of an alert's sentence is on screen, in order, and its
    /// buttons stay clear of the rows the sentence takes.
    @Test(arguments: [40, 80, 120])
    func anAlertsSentenceIsNeverCut(columns: Int) throws {
        let alert = Alert.confirmDeletion(of: Demo.historyRows[0], photoCount: 2)
        let state = Demo.state(.history, columns: columns, rows: 23, presentation: .alert(alert, over: .none))
        let said = Announcement.text(for: state, context: RenderContext(options: Self.options))
        #expect(wrappedAnnouncement(of: state) == said)
        let frame = render(state)
        let cursor = try #require(frame.cursor)
        #expect(cursor.row < frame.grid.height - Screen.announcementLines(for: state, context: RenderContext(options: Self.options)).count)
    }

    @Test func reviewCursorIsOnDone() throws {
        let presentation = Demo.capture(request: Demo.requests[0]) { capture in
            _ = capture.send(.kindChosen(.barcode))
            _ = capture.send(.textPasted("4006381333931"))
            _ = capture.send(.autoAdvanceElapsed(token: capture.autoAdvanceToken))
        }
        let frame = render(Demo.state(rows: 23, presentation: presentation))
        let cursor = try #require(frame.cursor)
        #expect(cursor.row == 0)
        #expect(frame.grid.text(ofRow: 0).dropFirst(cursor.column).hasPrefix("[ Done ]"))
    }

    @Test func textFieldsHaveTheCursorAtTheInsertionPoint() throws {
        let barcode = Demo.capture { capture in
            _ = capture.send(.kindChosen(.barcode))
            _ = capture.send(.textTyped("4006"))
            _ = capture.send(.cursorMoved(.left))
        }
        var frame = render(Demo.state(rows: 23, presentation: barcode))
        let field = try #require(frame.find("Code ["))
        #expect(frame.cursor == CursorPosition(row: field.row, column: field.column + 6 + 3))
        #expect(announcement(frame).hasPrefix("Capture Barcode"))

        let note = Demo.capture { capture in
            _ = capture.send(.kindChosen(.note))
            _ = capture.send(.textTyped("cold room"))
        }
        frame = render(Demo.state(rows: 23, presentation: note))
        let text = try #require(frame.find("cold room"))
        #expect(frame.cursor == CursorPosition(row: text.row, column: text.column + 9))
    }

    @Test func helpAndCapturesKeysHaveTheCursorOnTheirFirstLine() throws {
        var frame = render(Demo.state(.history, rows: 23, presentation: .sheet(.help(HelpState()))))
        var line = try cursorLine(frame)
        #expect(!line.cell.trimmingCharacters(in: .whitespaces).isEmpty)
        #expect(announcement(frame).hasPrefix("Keys for this screen"))
        let keys = Demo.capture { capture in
            _ = capture.send(.kindChosen(.barcode))
            _ = capture.send(.keysToggled)
        }
        frame = render(Demo.state(rows: 23, presentation: keys))
        line = try cursorLine(frame)
        #expect(!line.cell.trimmingCharacters(in: .whitespaces).isEmpty)
    }

    @Test func withNothingToFocusTheCursorRestsOnTheAnnouncementLine() throws {
        let saving = Demo.capture { capture in
            _ = capture.send(.kindChosen(.barcode))
            _ = capture.send(.textPasted("96385074"))
            _ = capture.send(.doneTapped)
        }
        let frame = render(Demo.state(rows: 23, presentation: saving))
        #expect(frame.cursor == CursorPosition(row: 23, column: 0))
        #expect(announcement(frame) == "Capture Barcode: saving...")
        let small = render(Demo.state(columns: 30, rows: 6))
        #expect(small.cursor == CursorPosition(row: 6, column: 0))
        #expect(announcement(small) == "Too small: need 24 by 9.")
        #expect(small.find("need 24x9, have 30x7") != nil, "the terminal's size, the announcement line's row included")
    }

    // MARK: - The announcement line

    @Test func announcementsSayTheTabTheToastTheCaptureAndTheSheet() {
        #expect(announcement(render(Demo.state(.history, rows: 23))) == "History tab, 1,234 records, \(HistoryBrowseMode.all.title).")
        #expect(announcement(render(Demo.state(.settings, rows: 23))) == "Settings tab; changes apply at once.")
        var state = Demo.state(.inbox, rows: 23)
        state.status = StatusMessage("Saved record #12.", kind: .success)
        #expect(announcement(render(state)) == "OK: Saved record #12.")
        state.status = StatusMessage("Storage is not writable: disk full.", kind: .error)
        #expect(announcement(render(state)) == "Error: Storage is not writable: disk full.")
        #expect(
            announcement(render(Demo.state(rows: 23, presentation: Demo.capture())))
                == "Capture: choose what to capture, \(CaptureKind.available.count) kinds.")
        let forRequest = Demo.capture(request: Demo.requests[0])
        #expect(
            announcement(render(Demo.state(columns: 120, rows: 23, presentation: forRequest)))
                == "Capture Barcode for Scan the pallet in bay 4 (step 1 of 2): type or scan the code.")
        let scanned = Demo.capture { capture in
            _ = capture.send(.kindChosen(.barcode))
            _ = capture.send(.textPasted("4006381333931"))
        }
        #expect(
            announcement(render(Demo.state(columns: 120, rows: 23, presentation: scanned)))
                == "Capture Barcode (step 2 of 2): review 4006381333931, EAN-13; Enter saves, Esc offers to discard.")
        var detail = Demo.history()
        detail.stack = [HistoryDetailState(record: Demo.historyRows[0])]
        #expect(announcement(render(Demo.state(.history, rows: 23, history: detail))) == "History, record 1234, Barcode.")
    }

    // MARK: - Reviewed screens

    /// What a reader gets, reviewed: the Inbox, a question over History, capture's code field
    /// being typed in, search with the results focused, at 80x24 and 40x12 (the terminal's size;
    /// the app has a row less).
    @Test(arguments: [(80, 24), (40, 12)])
    func reviewedScreens(columns: Int, rows: Int) {
        let app = rows - 1
        assertSnapshot(of: render(Demo.state(.inbox, columns: columns, rows: app, inbox: Demo.inbox(cursor: 1))), as: .gridText, named: "inbox-\(columns)x\(rows)")
        let question = Demo.state(.history, columns: columns, rows: app, presentation: .alert(.confirmDeletion(of: Demo.historyRows[0], photoCount: 2), over: .none))
        assertSnapshot(of: render(question), as: .gridText, named: "question-\(columns)x\(rows)")
        let typing = Demo.capture(request: Demo.requests[0]) { capture in
            _ = capture.send(.textTyped("40063813"))
        }
        assertSnapshot(of: render(Demo.state(columns: columns, rows: app, presentation: typing)), as: .gridText, named: "code-\(columns)x\(rows)")
        var search = SearchState(query: "")
        _ = search.send(.edited(.typed("pallet")), viewport: 10)
        _ = search.send(.resultsLoaded(query: "pallet", rows: Array(Demo.historyRows.prefix(12))), viewport: 10)
        _ = search.send(.input(.moved(.down)), viewport: 10)
        assertSnapshot(
            of: render(Demo.state(.history, columns: columns, rows: app, presentation: .sheet(.search(search)))), as: .gridText,
            named: "search-\(columns)x\(rows)")
    }

    // MARK: - Words, not symbols

    @Test func theTabBarSaysWhichTabIsSelected() {
        let frame = render(Demo.state(.history, rows: 23))
        let bar = frame.grid.text(ofRow: 22)
        #expect(bar.contains("History (selected)"))
        #expect(bar.contains("Inbox, 3 pending"))
        #expect(!bar.contains("["))
        // Too narrow for words: the brackets, which still say it in text.
        let narrow = render(Demo.state(.history, columns: 34, rows: 11))
        #expect(narrow.grid.text(ofRow: 10).contains("[Hist]") || narrow.grid.text(ofRow: 10).contains("[3]"))
    }

    @Test func scrollMarksAreWords() {
        let presentation = Demo.capture { capture in
            for _ in 0..<3 { _ = capture.send(.pickerCursorMoved(by: 1)) }
        }
        let frame = render(Demo.state(columns: 40, rows: 8, presentation: presentation))
        #expect(frame.grid.text.contains("more above") || frame.grid.text.contains("more below"))
        #expect(!frame.grid.text.contains("▲") && !frame.grid.text.contains("▼"))
    }

    /// Every screen of the gallery, with ASCII data, at several sizes: nothing but ASCII on
    /// screen (no box drawing, no ✓ ✗ ▲ ▼ › …), rows exactly as wide as the terminal, one more
    /// row than the app's, and the cursor on the grid.
    @Test func screenReaderFramesAreASCIIWordsAtEverySize() {
        for (name, state) in Gallery.asciiStates() {
            for (columns, rows) in ScreenPropertyTests.sizes + [(100, 30), (61, 17)] {
                let frame = render(Gallery.resized(state, columns: columns, rows: rows))
                #expect(frame.grid.height == rows + 1, "\(name) at \(columns)x\(rows)")
                let symbols = Set(frame.grid.cells.map(\.text).filter { !$0.allSatisfy(\.isASCII) })
                #expect(symbols.isEmpty, "\(name) at \(columns)x\(rows): \(symbols)")
                #expect(frame.structuralProblems.isEmpty, "\(name) at \(columns)x\(rows)")
                let cursor = frame.cursor
                #expect(cursor.map { frame.grid.contains(row: $0.row, column: $0.column) } == true, "\(name) at \(columns)x\(rows)")
            }
        }
    }

    /// Data keeps its own characters in screen-reader mode (a reader speaks them); only the
    /// chrome changes: no box-drawing character even over wide and hostile data.
    @Test func noBoxDrawingOverAnyData() {
        let chrome = Set(["─", "│", "┌", "┐", "└", "┘", "▲", "▼", "›", "‹", "▶", "●", "…", "·"])
        for (name, state) in Gallery.hostileStates() {
            for (columns, rows) in ScreenPropertyTests.sizes {
                let frame = render(Gallery.resized(state, columns: columns, rows: rows))
                let found = Set(frame.grid.cells.map(\.text)).intersection(chrome)
                #expect(found.isEmpty, "\(name) at \(columns)x\(rows): \(found)")
                let boxes = frame.grid.cells.flatMap(\.text.unicodeScalars).filter { (0x2500...0x259F).contains($0.value) }
                #expect(boxes.isEmpty, "\(name) at \(columns)x\(rows)")
            }
        }
    }

    /// On random walks through states (keys as a person presses them, through the key table and
    /// the reducer): the frame one row taller than the app, the cursor always on the grid, and no
    /// box drawing or chrome symbol anywhere.
    @Test func randomWalksKeepTheCursorOnTheGridAndTheChromeInWords() {
        let keys: [Key] = [
            .up, .down, .pageDown, .character("1"), .character("2"), .character("3"), .character("4"), .character("/"),
            .character("?"), .escape, .enter, .character("b"), .character("n"), .character("p"), .character("a"), .character("d"),
            .character("y"), .backspace, .tab, .function(1), .control("d"),
        ]
        // No "…" here: the model's own sentences may hold one (a copy's "Copied …" preview); the
        // gallery tests above hold the chrome's ellipsis to "...".
        let chrome = Set(["─", "│", "┌", "┐", "└", "┘", "▲", "▼", "›", "‹", "▶", "●", "✓", "✗", "·", "↑", "↓", "←", "→"])
        var generator = SplitMix64(seed: 26)
        for walk in 0..<60 {
            var state = Demo.state(.inbox, rows: 23)
            for step in 0..<40 {
                let key = keys[Int(generator.next() % UInt64(keys.count))]
                if let action = KeyMap.action(for: key, in: state) { _ = state.send(action) }
                let frame = render(state)
                #expect(frame.grid.height == 24, "walk \(walk) step \(step)")
                let cursor = frame.cursor
                #expect(cursor.map { frame.grid.contains(row: $0.row, column: $0.column) } == true, "walk \(walk) step \(step)")
                let found = Set(frame.grid.cells.map(\.text)).intersection(chrome)
                #expect(found.isEmpty, "walk \(walk) step \(step) (\(state.focus)): \(found)")
            }
        }
    }
}
