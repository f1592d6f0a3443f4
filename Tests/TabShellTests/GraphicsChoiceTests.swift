import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

/// How photos are drawn, chosen from what the terminal answered (never from TERM), and what
/// the setting, NO_COLOR, colour and a multiplexer do to that choice.
@Suite struct GraphicsChoiceTests {
    static let cell = CellPixels(width: 10, height: 20)!
    static let sixel = TerminalAnswers(primaryAttributes: [63, 1, 2, 4, 6], cellPixels: cell)
    static let kitty = TerminalAnswers(primaryAttributes: [62], terminalVersion: "kitty(0.35.2)", kittyGraphics: true, cellPixels: cell)
    static let wezTerm = TerminalAnswers(primaryAttributes: [65, 4, 6, 18, 22], terminalVersion: "WezTerm 20240203-110809-5046fc22")
    static let plain = TerminalAnswers(primaryAttributes: [62, 1, 6, 22])
    static let tmux = TerminalAnswers(primaryAttributes: [1, 2], secondaryAttributes: [84, 0, 0], terminalVersion: "tmux 3.3a")
    static let tmuxWithSixel = TerminalAnswers(primaryAttributes: [1, 2, 4], secondaryAttributes: [84, 0, 0], terminalVersion: "tmux 3.4", cellPixels: cell)

    static func terminal(_ answers: TerminalAnswers?, environment: [String: String] = [:], utf8: Bool = true, window: CellPixels? = nil) -> PreviewTerminal {
        PreviewTerminal.detect(isUTF8: utf8, colorCount: 256, environment: environment, answers: answers, windowCellPixels: window)
    }

    @Test("Automatic takes what the terminal answered: kitty, then iTerm2 images, then sixel, else blocks")
    func automaticTakesTheBestAnswered() {
        #expect(Self.terminal(Self.kitty).graphics == .kitty)
        #expect(Self.terminal(Self.wezTerm).graphics == .iterm2, "WezTerm names itself and shows iTerm2 images")
        #expect(Self.terminal(Self.sixel).graphics == .sixel)
        #expect(Self.terminal(Self.plain).graphics == nil)
        #expect(Self.terminal(nil).graphics == nil, "no answer in time: blocks")
        #expect(Self.terminal(TerminalAnswers(kittyGraphics: true)).graphics == nil, "without DA1 the answers are not complete")
    }

    @Test("TERM and TERM_PROGRAM alone never choose a protocol")
    func theEnvironmentAloneChoosesNothing() {
        let environment = ["TERM": "xterm-kitty", "TERM_PROGRAM": "iTerm.app", "KITTY_WINDOW_ID": "1"]
        #expect(Self.terminal(nil, environment: environment).graphics == nil)
        #expect(Self.terminal(Self.plain, environment: environment).graphics == nil)
    }

    @Test("sixel needs the cell size in pixels: from the terminal's answer, or the tty's window size")
    func sixelNeedsTheCellSize() {
        let noCell = TerminalAnswers(primaryAttributes: [63, 4])
        let terminal = Self.terminal(noCell)
        #expect(terminal.graphics == nil)
        #expect(terminal.describe(.automatic, usesColor: true) == "automatic (blocks: sixel, but the terminal did not say its cell size), 256 colours")
        let fromWindow = Self.terminal(noCell, window: CellPixels(width: 9, height: 18))
        #expect(fromWindow.graphics == .sixel)
        #expect(fromWindow.style(for: .automatic, usesColor: true) == .graphics(.sixel, cell: CellPixels(width: 9, height: 18)!))
        // The terminal's own answer wins over the window size.
        #expect(Self.terminal(Self.sixel, window: CellPixels(width: 9, height: 18)).cellPixels == Self.cell)
    }

    @Test("inside tmux or screen: only what the multiplexer itself draws (sixel when it lists it), else blocks")
    func insideAMultiplexer() {
        let inside = ["TMUX": "/tmp/tmux-0/default,1,0"]
        #expect(Self.terminal(Self.tmux, environment: inside).graphics == nil)
        #expect(Self.terminal(Self.tmux, environment: inside).describe(.automatic, usesColor: true) == "automatic (blocks: inside tmux), 256 colours")
        #expect(Self.terminal(Self.tmuxWithSixel, environment: inside).graphics == .sixel)
        // A kitty OK can only have come through a passthrough the app did not ask for: not used.
        #expect(Self.terminal(Self.kitty, environment: inside).graphics == nil)
        #expect(Self.terminal(Self.kitty, environment: ["STY": "1.pts-0"]).graphics == nil)
        // Without TMUX in the environment (sudo, ssh from inside tmux), the answers say tmux.
        #expect(Self.terminal(Self.tmux).describe(.automatic, usesColor: true) == "automatic (blocks: inside tmux 3.3a), 256 colours")
    }

    @Test("the setting: Automatic uses the protocol, Blocks and Off do not; no colour means monochrome blocks")
    func theSettingAndColour() {
        let kitty = Self.terminal(Self.kitty)
        #expect(kitty.style(for: .automatic, usesColor: true) == .graphics(.kitty, cell: Self.cell))
        #expect(kitty.style(for: .blocks, usesColor: true) == PreviewStyle(symbols: .blocks, colors: .palette256))
        #expect(kitty.style(for: .off, usesColor: true) == nil)
        #expect(kitty.style(for: .automatic, usesColor: false) == PreviewStyle(symbols: .blocks, colors: .monochrome))
        #expect(kitty.describe(.automatic, usesColor: false) == "automatic (blocks: colour is off), monochrome")
        let noColor = Self.terminal(Self.kitty, environment: ["NO_COLOR": "1"])
        #expect(noColor.graphics == nil)
        #expect(noColor.describe(.automatic, usesColor: false) == "automatic (blocks: NO_COLOR is set), monochrome")
        // A graphics protocol draws pictures, not characters: the locale does not matter to it.
        #expect(Self.terminal(Self.kitty, utf8: false).graphics == .kitty)
        #expect(Self.terminal(Self.plain, utf8: false).describe(.automatic, usesColor: true) == "automatic (ASCII shades: the locale is not UTF-8), 256 colours")
    }

    @Test("what Settings and doctor say Automatic chose")
    func whatAutomaticChose() {
        #expect(Self.terminal(Self.sixel).describe(.automatic, usesColor: true) == "automatic (sixel)")
        #expect(Self.terminal(Self.kitty).describe(.automatic, usesColor: true) == "automatic (kitty graphics)")
        #expect(Self.terminal(Self.wezTerm).describe(.automatic, usesColor: true) == "automatic (iTerm2 images)")
        #expect(Self.terminal(Self.sixel).automaticMethod(usesColor: true) == "sixel")
        #expect(Self.terminal(Self.kitty).automaticMethod(usesColor: true) == "kitty")
        #expect(Self.terminal(Self.plain).automaticMethod(usesColor: true) == "blocks")
        #expect(Self.terminal(Self.plain, utf8: false).automaticMethod(usesColor: true) == "ASCII")
        #expect(Self.terminal(Self.sixel).automaticMethod(usesColor: false) == "blocks")
    }

    @Test("previews are asked for in the chosen protocol; answers that come late switch them")
    func requestsFollowTheChoice() {
        var state = AppState.detailWithPhotos(1)
        #expect(state.previews.wanted.map(\.style) == [blocks256])
        let sixel = Self.terminal(Self.sixel)
        let effects = state.send(.previewTerminalFound(sixel))
        #expect(state.previewTerminal == sixel)
        #expect(effects.previewLoads.map(\.request.style) == [.graphics(.sixel, cell: Self.cell)])
        // Settings › Blocks goes back to characters.
        state.settings.photoPreviews = .blocks
        _ = state.send(.redrawRequested)
        #expect(state.previews.wanted.map(\.style) == [blocks256])
    }
}

/// A click on a photo shows it full screen, like Enter or F3.
@Suite struct PhotoClickTests {
    @Test("a click on a record's second photo highlights it and opens the viewer on it")
    func clickInADetail() {
        var state = AppState.detailWithPhotos(3)
        _ = state.send(.photoClicked(1))
        guard case let .viewer(viewer, _) = state.presentation else {
            Issue.record("no viewer: \(state.presentation)")
            return
        }
        #expect(viewer.index == 1)
        #expect(state.history.detail?.photoCursor == 1)
        _ = state.send(.escapePressed)
        #expect(state.presentation == .none)
    }

    @Test("a click on a staged photo in capture opens the viewer on it; a click on no photo does nothing")
    func clickInCapture() {
        var state = AppState.loaded()
        state.previewTerminal = testPreviewTerminal
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.photos))])
        guard case var .fullScreenCapture(capture) = state.presentation else {
            Issue.record("no capture")
            return
        }
        capture.photos = [stagedPhoto(0), stagedPhoto(1)]
        state.presentation = .fullScreenCapture(capture)
        _ = state.send(.photoClicked(5))
        #expect(state.presentation.capture != nil, "no such photo: nothing happens")
        _ = state.send(.photoClicked(0))
        guard case let .viewer(viewer, _) = state.presentation else {
            Issue.record("no viewer: \(state.presentation)")
            return
        }
        #expect(viewer.index == 0)
    }

    @Test("with previews off a click says why, as Enter does")
    func clickWithPreviewsOff() {
        var state = AppState.detailWithPhotos(2)
        state.settings.photoPreviews = .off
        _ = state.send(.photoClicked(1))
        #expect(state.presentation == .none)
        #expect(state.status?.text.contains("Photo previews are off") == true)
    }
}

/// Capture's list of keys (`?`/F1) scrolls like the help sheet when the screen is short.
@Suite struct CaptureKeysScrollTests {
    static func showingKeys(rows: Int) -> AppState {
        var state = AppState.loaded(size: ScreenSize(rows: rows, columns: 40))
        _ = state.send([.tabChosen(.create), .capture(.kindChosen(.photos))])
        _ = state.send(KeyMap.action(for: .function(1), in: state)!)
        return state
    }

    static func lineCount(_ state: AppState) -> Int {
        KeyMap.helpLines(for: KeyMap.captureContexts(for: state) + [.global], in: state, unicode: true).count
    }

    @Test("at 40x12 ↓, PgDn and End scroll to the last key and no further; ↑ and Home come back")
    func scrollsAt40x12() {
        var state = Self.showingKeys(rows: 12)
        #expect(state.presentation.capture?.isShowingKeys == true)
        let rows = state.layout.captureKeysRows
        let count = Self.lineCount(state)
        #expect(count > rows, "the list is longer than the screen at 40x12")
        _ = state.send(KeyMap.action(for: .down, in: state)!)
        #expect(state.presentation.capture?.keysScrollOffset == 1)
        _ = state.send(KeyMap.action(for: .pageDown, in: state)!)
        #expect(state.presentation.capture?.keysScrollOffset == min(1 + rows - 1, count - rows))
        _ = state.send(KeyMap.action(for: .end, in: state)!)
        #expect(state.presentation.capture?.keysScrollOffset == count - rows)
        _ = state.send(KeyMap.action(for: .down, in: state)!)
        #expect(state.presentation.capture?.keysScrollOffset == count - rows, "no scrolling past the end")
        _ = state.send(KeyMap.action(for: .up, in: state)!)
        #expect(state.presentation.capture?.keysScrollOffset == count - rows - 1)
        _ = state.send(KeyMap.action(for: .home, in: state)!)
        #expect(state.presentation.capture?.keysScrollOffset == 0)
        #expect(state.presentation.capture?.isShowingKeys == true, "scrolling keeps the list open")
        // Esc closes it; opening it again starts at the top.
        _ = state.send(KeyMap.action(for: .end, in: state)!)
        _ = state.send(KeyMap.action(for: .escape, in: state)!)
        #expect(state.presentation.capture?.isShowingKeys == false)
        _ = state.send(KeyMap.action(for: .function(1), in: state)!)
        #expect(state.presentation.capture?.keysScrollOffset == 0)
    }

    @Test("when every key fits, nothing scrolls")
    func nothingToScrollWhenItFits() {
        var state = Self.showingKeys(rows: 60)
        _ = state.send(KeyMap.action(for: .pageDown, in: state)!)
        #expect(state.presentation.capture?.keysScrollOffset == 0)
    }
}
