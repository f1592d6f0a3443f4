import CaptureMode
import Domain
import Testing

@testable import TabShell

/// A state in which `KeyMap.contexts(for:)` includes `context`.
func state(yielding context: KeyContext) -> AppState {
    var state = AppState.loaded(requests: [request(1), request(2, kind: .note)], historyTotal: 10)
    switch context {
    case .tabs, .inbox, .global:
        break
    case .history:
        _ = state.send(.tabChosen(.history))
    case .historyDetail:
        _ = state.send([.tabChosen(.history), .rowActivated])
    case .settings:
        _ = state.send(.tabChosen(.settings))
    case .capturePicker:
        _ = state.send(.tabChosen(.create))
    case .captureBarcode:
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.barcode))])
    case .captureNote:
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.note))])
    case .captureReview:
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.barcode)), .capture(.textPasted(validEAN13.value))])
        _ = state.send(.capture(.enterPressed))
    case .capturePhotos:
        state.presentation = .fullScreenCapture(CaptureState(request: CaptureRequestLink(id: 9, title: "Shoot it", kind: .photos)))
    case .captureKeys:
        _ = state.send([.tabChosen(.create), .capture(.keysToggled)])
    case .captureConfirmClose:
        var capture = CaptureState(request: CaptureRequestLink(id: 9, title: "Shoot it", kind: .photos))
        capture.photos = [StagedPhoto(storedName: "a.png", originalName: "a.png", format: .png, pixelWidth: 1, pixelHeight: 1, byteSize: 10)]
        _ = capture.send(.closeTapped)
        state.presentation = .fullScreenCapture(capture)
    case .search:
        _ = state.send(.searchRequested)
    case .help:
        _ = state.send(.helpRequested)
    case .alert:
        state.presentation = .alert(.requestRequired, over: .none)
    case .confirm:
        _ = state.send([.tabChosen(.history), .history(.deleteRequested)])
    case .capturePhotoView:
        state.previewTerminal = PreviewTerminal(symbols: .blocks, has256Colors: true)
        var capture = CaptureState(request: CaptureRequestLink(id: 9, title: "Shoot it", kind: .photos))
        capture.photos = [StagedPhoto(storedName: "a.png", originalName: "a.png", format: .png, pixelWidth: 1, pixelHeight: 1, byteSize: 10)]
        state.presentation = .fullScreenCapture(capture)
    case .photoViewer:
        state.previewTerminal = PreviewTerminal(symbols: .blocks, has256Colors: true)
        let photos = ["a.png", "b.png"].map {
            ViewerPhoto(source: .stored(storedName: $0), name: $0, format: .png, pixelWidth: 4, pixelHeight: 3, byteSize: 99)
        }
        if let viewer = PhotoViewerState(photos: photos, index: 0) { state.presentation = .viewer(viewer, over: .none) }
    case .tooSmall:
        _ = state.send(.resized(ScreenSize(rows: Layout.minimumSize.rows - 1, columns: Layout.minimumSize.columns)))
    }
    return state
}

/// A barcode capture whose code was just accepted: the toast is showing.
func stateDuringScanToast() -> AppState {
    var state = state(yielding: .captureBarcode)
    _ = state.send(.capture(.textPasted(validEAN13.value)))
    return state
}

@Suite("KeyMap")
struct KeyMapTests {
    @Test("each context has a state that yields it", arguments: KeyContext.allCases)
    func contextIsReachable(context: KeyContext) {
        #expect(KeyMap.contexts(for: state(yielding: context)).contains(context))
    }

    @Test("every binding's action is what its keys send in its context", arguments: KeyContext.allCases)
    func bindingsAreReachable(context: KeyContext) {
        let state = state(yielding: context)
        for binding in KeyMap.bindings(for: context, in: state) {
            for key in binding.keys {
                #expect(KeyMap.action(for: key, in: state) == binding.action(for: key), "\(key.label()) in \(context)")
                #expect(binding.action(for: key) != nil, "\(key.label()) in \(context) has no action")
            }
        }
    }

    @Test(
        "keys sent by the table do what their help says",
        arguments: [
            (KeyContext.inbox, Key.character("4"), Tab.settings),
            (.settings, .character("l"), .inbox),
            (.history, .backTab, .inbox),
            (.inbox, .tab, .history),
        ])
    func tableKeysSwitchTabs(context: KeyContext, key: Key, tab: Tab) throws {
        var state = state(yielding: context)
        _ = state.send(try #require(KeyMap.action(for: key, in: state)))
        #expect(state.selectedTab.tab == tab)
    }

    // MARK: - Text fields

    @Test(
        "q quits outside text fields",
        arguments: [
            KeyContext.inbox, .history, .historyDetail, .settings, .capturePicker, .captureReview,
        ])
    func qQuits(context: KeyContext) {
        #expect(KeyMap.action(for: .character("q"), in: state(yielding: context)) == .quitRequested)
    }

    @Test(
        "q, digits and Space type into the barcode field and the note",
        arguments: [
            KeyContext.captureBarcode, .captureNote,
        ])
    func keysTypeInTextFields(context: KeyContext) {
        let state = state(yielding: context)
        for character in ["q", "1", "2", "+", "?", " ", "h", "l", "k", "j", "G", "é", "漢"] as [Character] {
            #expect(KeyMap.action(for: .character(character), in: state) == .capture(.textTyped(String(character))))
        }
    }

    @Test(
        "Ctrl-U deletes back to the start of the line in every text field and the search",
        arguments: [
            KeyContext.captureBarcode, .capturePhotos, .captureNote, .search,
        ])
    func ctrlUDeletesToLineStart(context: KeyContext) throws {
        var state = state(yielding: context)
        for key: Key in [.character("a"), .character("b"), .character("c"), .left, .control("u")] {
            _ = state.send(try #require(KeyMap.action(for: key, in: state), "\(key.label()) in \(context)"))
        }
        let text: String? =
            switch context {
            case .captureBarcode: state.presentation.capture?.barcodeInput.text
            case .capturePhotos: state.presentation.capture?.photoPath.text
            case .captureNote: state.presentation.capture?.note.text
            default: state.presentation.search?.query.text
            }
        #expect(text == "c", "the text after the cursor stays")
    }

    @Test("q types a q into the note, end to end")
    func qTypesIntoNote() throws {
        var state = state(yielding: .captureNote)
        for key: Key in [.character("q"), .enter, .character("x")] {
            _ = state.send(try #require(KeyMap.action(for: key, in: state)))
        }
        #expect(state.presentation.capture?.note.text == "q\nx")
        #expect(!state.isQuitting)
    }

    @Test("editing keys edit the text field", arguments: [KeyContext.captureBarcode, .captureNote])
    func editingKeys(context: KeyContext) {
        let state = state(yielding: context)
        #expect(KeyMap.action(for: .backspace, in: state) == .capture(.backspacePressed))
        #expect(KeyMap.action(for: .delete, in: state) == .capture(.deletePressed))
        #expect(KeyMap.action(for: .left, in: state) == .capture(.cursorMoved(.left)))
        #expect(KeyMap.action(for: .home, in: state) == .capture(.cursorMoved(.home)))
    }

    @Test("up and down move between lines of the note")
    func upDownInNote() {
        let state = state(yielding: .captureNote)
        #expect(KeyMap.action(for: .up, in: state) == .capture(.cursorMoved(.up)))
        #expect(KeyMap.action(for: .down, in: state) == .capture(.cursorMoved(.down)))
    }

    @Test("a paste in the barcode field is a textPasted")
    func pasteInBarcode() {
        let state = state(yielding: .captureBarcode)
        #expect(KeyMap.action(for: .paste("5901234123457"), in: state) == .capture(.textPasted("5901234123457")))
    }

    @Test("a paste into the barcode field is checked at once, end to end")
    func pasteChecksCode() throws {
        var state = state(yielding: .captureBarcode)
        _ = state.send(try #require(KeyMap.action(for: .paste(validEAN13.value), in: state)))
        #expect(state.presentation.capture?.barcode == validEAN13)
    }

    @Test("under an alert, keys do not reach the text field")
    func alertOverCaptureSwallowsText() {
        var state = state(yielding: .captureNote)
        state.presentation = .alert(.requestRequired, over: state.presentation)
        #expect(KeyMap.action(for: .character("q"), in: state) == nil)
        #expect(KeyMap.action(for: .paste("x"), in: state) == nil)
        #expect(KeyMap.action(for: .escape, in: state) == .alertDismissed)
    }

    // MARK: - Close and Done

    @Test(
        "Ctrl-D is Done and Esc is Close in every capture phase",
        arguments: [
            state(yielding: .capturePicker), state(yielding: .captureBarcode), stateDuringScanToast(),
            state(yielding: .captureNote), state(yielding: .captureReview),
        ])
    func doneAndCloseEverywhere(state: AppState) {
        #expect(KeyMap.action(for: .control("d"), in: state) == .capture(.doneTapped))
        #expect(KeyMap.action(for: .escape, in: state) == .capture(.closeTapped))
    }

    @Test("Enter during the scan toast moves on to review instead of committing")
    func enterDuringToastGoesToReview() throws {
        var state = stateDuringScanToast()
        #expect(state.presentation.capture?.scanToast == validEAN13)
        let effects = state.send(try #require(KeyMap.action(for: .enter, in: state)))
        #expect(effects.commits.isEmpty)
        #expect(state.presentation.capture?.phase == .review)
        #expect(state.presentation.capture?.isCommitting == false)
    }

    @Test("Enter on review commits")
    func enterOnReviewCommits() throws {
        var state = state(yielding: .captureReview)
        let effects = state.send(try #require(KeyMap.action(for: .enter, in: state)))
        #expect(effects.commits == [CaptureSubmission(kind: .barcode, barcode: validEAN13, codeSource: .paste)])
    }

    // MARK: - Help sheet

    @Test("list keys scroll the help sheet, and Space pages it")
    func helpSheetKeys() {
        let state = state(yielding: .help)
        #expect(KeyMap.action(for: .down, in: state) == .listMoved(.down))
        #expect(KeyMap.action(for: .character("k"), in: state) == .listMoved(.up))
        #expect(KeyMap.action(for: .character(" "), in: state) == .listMoved(.pageDown))
        #expect(KeyMap.action(for: .character("1"), in: state) == nil)
    }

    @Test("help lists every binding of every context, under the context's title", arguments: [true, false])
    func helpListsEveryBinding(unicode: Bool) {
        let state = AppState()
        let lines = KeyMap.helpLines(for: KeyContext.allCases, in: state, unicode: unicode)
        for context in KeyContext.allCases {
            let section = lines.firstIndex(of: .section(context.title))
            #expect(section != nil, "no section for \(context)")
            let bindings = KeyMap.bindings(for: context, in: state)
            let listed = section.map { Array(lines[($0 + 1)...].prefix(bindings.count)) }
            #expect(listed == bindings.map { .binding(keys: $0.label(unicode: unicode), help: $0.help) })
        }
        #expect(lines.count == KeyContext.allCases.reduce(0) { $0 + 1 + KeyMap.bindings(for: $1, in: state).count })
    }

    // MARK: - Hints

    @Test("hints for a state come only from that state's contexts", arguments: KeyContext.allCases)
    func hintsComeFromStateContexts(context: KeyContext) {
        let state = state(yielding: context)
        let expected = KeyMap.contexts(for: state).flatMap { KeyMap.bindings(for: $0, in: state).compactMap(\.hint) }
        #expect(KeyMap.hints(for: state, unicode: true).map(\.hint) == expected)
        #expect(KeyMap.hints(for: state, unicode: false).allSatisfy { !$0.keys.isEmpty && $0.keys.allSatisfy(\.isASCII) })
    }

    @Test("capture's hint line offers Close and Done; the Inbox's offers capture, create and quit")
    func hintExamples() {
        let capture = KeyMap.hints(for: state(yielding: .captureBarcode), unicode: true)
        #expect(capture.contains { $0 == ("Esc", "close") })
        #expect(capture.contains { $0 == ("Ctrl-D", "done") })
        #expect(!capture.contains { $0.hint == "quit" })

        let inbox = KeyMap.hints(for: state(yielding: .inbox), unicode: true).map(\.hint)
        #expect(inbox.contains("capture"))
        #expect(inbox.contains("create"))
        #expect(inbox.contains("quit"))
        #expect(!inbox.contains("open"))
        #expect(!inbox.contains("done"))
    }

    // MARK: - History, search and questions

    @Test("b, d, Del and D in the History list; d, Del and the scroll keys in a record")
    func historyKeys() {
        let list = state(yielding: .history)
        #expect(KeyMap.action(for: .character("b"), in: list) == .history(.browseModeCycled))
        #expect(KeyMap.action(for: .character("d"), in: list) == .history(.deleteRequested))
        #expect(KeyMap.action(for: .delete, in: list) == .history(.deleteRequested))
        #expect(KeyMap.action(for: .character("D"), in: list) == .history(.clearAllRequested))
        let detail = state(yielding: .historyDetail)
        #expect(KeyMap.action(for: .character("d"), in: detail) == .history(.deleteRequested))
        #expect(KeyMap.action(for: .character("b"), in: detail) == nil)
        #expect(KeyMap.action(for: .down, in: detail) == .listMoved(.down))
        #expect(KeyMap.action(for: .end, in: detail) == .listMoved(.end))
    }

    @Test("/ opens search from every tab", arguments: [KeyContext.inbox, .history, .historyDetail, .settings])
    func slashSearches(context: KeyContext) {
        #expect(KeyMap.action(for: .character("/"), in: state(yielding: context)) == .searchRequested)
    }

    @Test("in the search sheet every character types, even the ones that are keys elsewhere")
    func searchTyping() {
        let state = state(yielding: .search)
        for character in ["q", "1", "2", "+", "?", "/", " ", "b", "d", "D", "j", "k", "漢"] as [Character] {
            #expect(KeyMap.action(for: .character(character), in: state) == .search(.edited(.typed(String(character)))))
        }
        #expect(KeyMap.action(for: .paste("a\nb"), in: state) == .search(.edited(.pasted("a\nb"))))
        #expect(KeyMap.action(for: .backspace, in: state) == .search(.edited(.backspace)))
        #expect(KeyMap.action(for: .delete, in: state) == .search(.edited(.deleteForward)))
        #expect(KeyMap.action(for: .left, in: state) == .search(.edited(.moved(.left))))
        #expect(KeyMap.action(for: .home, in: state) == .search(.edited(.moved(.home))))
        #expect(KeyMap.action(for: .up, in: state) == .listMoved(.up))
        #expect(KeyMap.action(for: .down, in: state) == .listMoved(.down))
        #expect(KeyMap.action(for: .enter, in: state) == .rowActivated)
        #expect(KeyMap.action(for: .escape, in: state) == .escapePressed)
        #expect(KeyMap.action(for: .tab, in: state) == nil)
        #expect(KeyMap.action(for: .control("d"), in: state) == nil)
    }

    @Test("typing a query key by key, end to end")
    func searchEndToEnd() throws {
        var state = state(yielding: .search)
        var asked: [String] = []
        for key: Key in [.character("q"), .character("1"), .left, .backspace, .character("/")] {
            asked += state.send(try #require(KeyMap.action(for: key, in: state))).searches
        }
        #expect(state.presentation.search?.query.text == "/1")
        #expect(asked == ["q", "q1", "1", "/1"])
        #expect(!state.isQuitting)
    }

    @Test("a question: Enter presses the default button, its letters press theirs, Esc cancels")
    func confirmKeys() throws {
        let deleting = state(yielding: .confirm)
        let alert = try #require(deleting.presentation.alert)
        #expect(KeyMap.action(for: .enter, in: deleting) == .alertButtonPressed(alert.defaultButton))
        #expect(KeyMap.action(for: .character("y"), in: deleting) == .alertButtonPressed(0))
        #expect(KeyMap.action(for: .character("n"), in: deleting) == .alertButtonPressed(1))
        #expect(KeyMap.action(for: .escape, in: deleting) == .alertDismissed)
        #expect(KeyMap.action(for: .character(" "), in: deleting) == nil)
        #expect(KeyMap.action(for: .character("q"), in: deleting) == nil)
        #expect(KeyMap.action(for: .character("d"), in: deleting) == nil)

        var clearing = AppState.loaded(historyTotal: 3)
        _ = clearing.send(.history(.clearAllRequested))
        #expect(KeyMap.action(for: .enter, in: clearing) == .alertButtonPressed(1), "Enter cancels Clear all")
        #expect(KeyMap.contexts(for: clearing) == [.confirm, .global])
    }

    @Test("d then y deletes, end to end; d then Enter does not, nor D then Enter")
    func deleteByKeys() throws {
        var state = state(yielding: .history)
        var effects: [AppEffect] = []
        for key: Key in [.character("d"), .character("y")] {
            effects += state.send(try #require(KeyMap.action(for: key, in: state)))
        }
        #expect(effects == [.deleteRecord(historyRow(at: 0, total: 10).id)])

        effects = []
        for key: Key in [.character("d"), .enter] {
            effects += state.send(try #require(KeyMap.action(for: key, in: state)))
        }
        #expect(effects.isEmpty, "Enter on Delete record? cancels")
        #expect(state.presentation == .none)

        effects = []
        for key: Key in [.character("D"), .enter] {
            effects += state.send(try #require(KeyMap.action(for: key, in: state)))
        }
        #expect(effects.isEmpty)
        #expect(state.presentation == .none)
    }

    @Test("History offers open, mode and delete; search offers open, results and close")
    func newHints() {
        let history = KeyMap.hints(for: state(yielding: .history), unicode: true).map(\.hint)
        #expect(Array(history.prefix(4)) == ["open", "mode", "delete", "move"])
        #expect(history.contains("search"))
        let search = KeyMap.hints(for: state(yielding: .search), unicode: true)
        #expect(search.map(\.hint) == ["open", "results", "close"])
        #expect(search.map(\.keys) == ["Enter", "↑↓", "Esc"])
    }
}
