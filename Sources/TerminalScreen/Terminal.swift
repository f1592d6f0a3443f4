import CCrashGuard
import CNcursesw
import Domain
import Glibc
import Render
import TabShell
import TerminalInput

/// The terminal: the only code in tabshell that talks to curses.
///
/// It copies rendered grids to the screen (only the cells that changed), turns input, mouse
/// reports and signals into `TerminalEvent`s, handles Ctrl-Z and resizes itself, and puts the
/// terminal back exactly as it found it on `restore()`. Use it from one thread only.
public final class Terminal {
    // MARK: - Tuning

    /// A paste whose end marker has not come after this much silence is delivered as it is.
    static let pasteSilence: Duration = .seconds(2)
    /// Reads that find nothing although poll() said the tty was readable: the tty hit EOF.
    static let emptyReadsMeaningHangup = 8
    /// Bracketed paste, and mouse reports in SGR form (ESC [ < b ; x ; y M), which stay plain
    /// ASCII at any column where the X10 form's raw bytes do not survive a UTF-8 decoder.
    static let inputModesOn = "\u{1b}[?2004h\u{1b}[?1006h"
    static let inputModesOff = "\u{1b}[?1006l\u{1b}[?2004l"
    /// The signals we watch. None is at its default when newterm runs, so curses installs no
    /// handlers of its own: resizes, Ctrl-Z and quitting all happen on the main thread.
    /// SIGUSR1 is `tabshell serve`'s notice that an idle session is about to close.
    private static let watchedSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH, SIGUSR1]

    /// The watched signals, less SIGHUP when it was already ignored at start: run under
    /// `nohup` (or by a parent that ignores it), tabshell keeps ignoring hang-ups and notices a
    /// lost terminal from the tty itself (EOF, EIO, POLLHUP) instead.
    private static func signalsToWatch() -> [Int32] {
        watchedSignals.filter { $0 != SIGHUP || !isIgnored(SIGHUP) }
    }

    /// Whether `signal`'s disposition is SIG_IGN (SIG_DFL is a null handler, SIG_IGN is 1).
    private static func isIgnored(_ signal: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0,
            current.sa_flags & Int32(SA_SIGINFO) == 0,
            let handler = current.__sigaction_handler.sa_handler
        else { return false }
        return unsafeBitCast(handler, to: Int.self) == 1
    }

    // MARK: - State

    /// The curses screen; nil once restored.
    var screen: OpaquePointer?
    let tty: UnsafeMutablePointer<FILE>
    let ttyDescriptor: Int32
    /// The tty modes from before curses started, put back by `restore()`.
    private var originalModes: termios
    let signals: SignalWatcher
    var decoder = InputDecoder()
    /// Events decoded but not yet returned (one input burst can hold several).
    var pending: [TerminalEvent] = []
    var pendingQuits: [QuitSignal] = []
    /// The size last reported with `.resized`, so each change is reported once.
    var reportedSize: ScreenSize
    var hungUp = false
    var ttyWasReadable = false
    var emptyReads = 0
    var lastInput = ContinuousClock.now
    /// Set while stopped by our own Ctrl-Z handling: the SIGCONT that follows is already handled.
    var awaitingOwnContinue = false

    // Drawing
    /// The grid on screen, diffed against the next one; nil forces every cell to be written.
    var previousGrid: Grid?
    /// The screen may not show what curses thinks (resize, back from Ctrl-Z): clear and repaint.
    var screenIsGarbled = true
    var cursorVisible: Bool?
    private var colorEnabled: Bool
    /// The theme drawn: the one asked for (Settings, else config.toml), auto resolved with the
    /// background colour the terminal answered (dark until and unless it answers).
    private(set) var drawnTheme: ResolvedTheme = .dark
    /// The terminal has at least 8 colours and a pair for every CellStyle.
    private let colorsUsable: Bool
    /// `use_default_colors` worked: -1 is the terminal's own foreground or background.
    var hasDefaultColors = false
    private var scalarBuffer: [wchar_t] = []

    // Photo previews' colours: pairs allocated on demand, keyed by (foreground, background)
    // palette indexes, from a range the styles' pairs (1...CellStyle count) never reach.
    static let firstPreviewPair: Int32 = 64
    var previewPairs: [UInt32: Int16] = [:]
    var nextPreviewPair = Terminal.firstPreviewPair
    /// The last pair number previews may use; below `firstPreviewPair` when they can use none.
    let lastPreviewPair: Int32

    // Graphics: what the terminal answered, and the pictures on screen now.
    /// The answers to `TerminalQuery` so far.
    var answers = TerminalAnswers()
    /// The query was sent and its last answer has not come yet.
    var awaitingAnswers = false
    /// The graphics pictures drawn over the last frame, where they are.
    var placedImages: [FrameImage] = []

    /// The locale's codeset is UTF-8; otherwise everything is drawn in ASCII.
    public let isUnicode: Bool

    public var size: ScreenSize {
        screen == nil ? reportedSize : ScreenSize(rows: Int(ts_lines()), columns: Int(ts_cols()))
    }

    /// Colour is in use: the terminal has colours and neither NO_COLOR nor Settings turned it off.
    public var supportsColor: Bool { colorsUsable && colorEnabled }

    /// curses' COLORS: how many colours the terminal has (0 without colour).
    public let colorCount: Int

    /// The colours photo previews can be drawn in: COLORS when at least 256 colour pairs are
    /// free for them, else 0 (previews are then monochrome rather than short of pairs).
    public var previewColorCount: Int {
        Int(lastPreviewPair - Self.firstPreviewPair + 1) >= 256 ? colorCount : 0
    }

    // MARK: - Start and restore

    /// Takes over the terminal on /dev/tty (so it works with stdin or stdout redirected).
    /// `colorAllowed` is false when NO_COLOR is set non-empty or Settings turned colour off.
    /// Throws, leaving the terminal untouched, when there is no terminal or TERM cannot be used.
    public init(colorAllowed: Bool) throws(TerminalError) {
        guard let termValue = getenv("TERM"), termValue.pointee != 0 else {
            throw TerminalError(message: "tabshell needs a terminal: TERM is not set.")
        }
        let term = String(cString: termValue)
        guard term != "dumb" else {
            throw TerminalError(message: "tabshell needs a terminal that can move the cursor; TERM=dumb cannot.")
        }
        setlocale(LC_ALL, "")  // before curses, so it reads and writes UTF-8 when the locale says so

        guard let tty = fopen("/dev/tty", "r+") else {
            throw TerminalError(message: "tabshell needs a terminal: /dev/tty could not be opened (\(String(cString: strerror(errno)))).")
        }
        // Closed again on every way out but the one that keeps it.
        var keepsTTY = false
        defer { if !keepsTTY { fclose(tty) } }
        let descriptor = fileno(tty)
        var modes = termios()
        guard tcgetattr(descriptor, &modes) == 0 else {
            throw TerminalError(message: "tabshell needs a terminal: /dev/tty is not one.")
        }
        var canAddress: Int32 = 0
        switch ts_check_terminfo(term, descriptor, &canAddress) {
        case 1 where canAddress != 0:
            break
        case 1:
            throw TerminalError(message: "tabshell needs a terminal that can move the cursor; TERM=\(term) cannot.")
        case -1:
            throw TerminalError(message: "tabshell could not find the terminfo database to look up TERM=\(term).")
        default:
            throw TerminalError(message: "tabshell needs a terminal it knows: TERM=\(term) is not in terminfo.")
        }

        // The watcher unblocks what it watches: started with SIGTSTP blocked (as under some test
        // runners and supervisors), Ctrl-Z would otherwise come back as another Ctrl-Z forever.
        let signals = try SignalWatcher(signals: Self.signalsToWatch())
        guard let screen = newterm(term, tty, tty) else {
            signals.stop()
            tcsetattr(descriptor, TCSANOW, &modes)
            throw TerminalError(message: "tabshell could not start the terminal (TERM=\(term)).")
        }
        keepsTTY = true

        self.screen = screen
        self.tty = tty
        self.ttyDescriptor = descriptor
        self.originalModes = modes
        self.signals = signals
        self.colorEnabled = colorAllowed
        self.isUnicode = ts_locale_is_utf8() != 0
        // COLORS and COLOR_PAIRS are only known once start_color has run.
        self.colorsUsable =
            has_colors() && start_color() == OK
            && ts_colors() >= 8 && Int(ts_color_pairs()) > CellStyle.allCases.count
        self.colorCount = colorsUsable ? Int(ts_colors()) : 0
        // Pair numbers beyond Int16 need curses' extended calls; 32,000 pairs are plenty.
        self.lastPreviewPair = colorsUsable && ts_colors() >= 256 ? min(ts_color_pairs(), 32767) - 1 : 0
        self.reportedSize = ScreenSize(rows: Int(ts_lines()), columns: Int(ts_cols()))
        Self.armEmergencyRestore(descriptor: descriptor, modes: modes)
        configureScreen()
    }

    private func configureScreen() {
        let window = ts_stdscr()
        // cbreak, not raw: ISIG stays on, so Ctrl-Z and Ctrl-\ arrive as signals; Ctrl-C is a
        // key (allowFlowControlKeys), read in order after the keys typed before it.
        cbreak()
        noecho()
        nonl()
        allowFlowControlKeys()
        // Keypad translation off: curses knows only the keys of one terminfo entry and turns
        // any other terminal's sequence into Esc + letters. InputDecoder reads them all.
        keypad(window, false)
        intrflush(window, false)
        // Reads never block: nextEvent sleeps in poll() on the tty and the signal pipe instead.
        nodelay(window, true)
        // Writing the bottom-right cell must not scroll the screen.
        scrollok(window, false)
        // Finish each frame even while keys are arriving; the next frame follows anyway.
        typeahead(-1)
        curs_set(0)
        cursorVisible = false
        if colorsUsable { defineColorPairs() }

        mousemask(ts_button1_pressed() | ts_button1_clicked() | ts_button4_pressed() | ts_button5_pressed(), nil)
        mouseinterval(0)  // report presses at once instead of waiting to make clicks

        writeToTTY(Self.inputModesOn)
    }

    /// Turns off XON/XOFF flow control, which cbreak leaves on: otherwise Ctrl-S freezes the
    /// screen until Ctrl-Q and neither key reaches the app. Ctrl-C becomes a key (byte 0x03)
    /// instead of SIGINT: the signal would flush the keys typed before it and end the app
    /// before they are read, while the key comes after them and the key table decides (a
    /// capture holding work asks first; see `AppAction.interruptRequested`). SIGINT from kill(1)
    /// still quits. def_prog_mode makes curses keep this across Ctrl-Z.
    private func allowFlowControlKeys() {
        var modes = termios()
        guard tcgetattr(ttyDescriptor, &modes) == 0 else { return }
        modes.c_iflag &= ~tcflag_t(IXON)
        withUnsafeMutableBytes(of: &modes.c_cc) { characters in
            // 0 is _POSIX_VDISABLE on Linux: no character interrupts.
            if Int(VINTR) < characters.count { characters[Int(VINTR)] = 0 }
        }
        tcsetattr(ttyDescriptor, TCSANOW, &modes)
        def_prog_mode()
    }

    /// One colour pair per CellStyle in the theme drawn (pair = rawValue + 1; pair 0 is the
    /// terminal's default). Redefining a pair repaints its cells at the next update.
    private func defineColorPairs() {
        hasDefaultColors = use_default_colors() == OK
        for style in CellStyle.allCases {
            let look = TerminalStyle.colored(style, theme: drawnTheme, colors: colorCount)
            // Without default colours "-1" is invalid: the theme's assumed colours stand in
            // (white on black for dark, black on white for light).
            let light = drawnTheme == .light
            let foreground =
                look.foreground == .terminalDefault && !hasDefaultColors
                ? (light ? TerminalStyle.Color.black : .white) : look.foreground
            let background =
                look.background == .terminalDefault && !hasDefaultColors
                ? (light ? TerminalStyle.Color.white : .black) : look.background
            init_pair(Self.colorPair(style), foreground.rawValue, background.rawValue)
        }
    }

    /// Puts the terminal back as it was: mouse reporting and bracketed paste off, cursor
    /// shown, main screen, original tty modes. Idempotent; the terminal is unusable afterwards.
    /// Signals stay caught (and `nextEvent` reports them) until the Terminal is released, so
    /// cleanup after restoring is not cut short by a second Ctrl-C.
    public func restore() {
        guard let screen else { return }
        tsg_disarm_terminal()  // the crash guard no longer restores the terminal: this does
        removeKittyImages()
        mousemask(0, nil)
        curs_set(1)
        // Without an alternate screen (vt100, linux) the app's last frame would stay on the
        // shell's screen: clear it once curses has let go.
        let clearOnExit = Self.capability("rmcup") == nil ? Self.capability("clear") : nil
        endwin()
        if let clearOnExit { writeToTTY(clearOnExit) }
        writeToTTY(Self.inputModesOff)
        delscreen(screen)
        self.screen = nil
        tcsetattr(ttyDescriptor, TCSANOW, &originalModes)
        fclose(tty)
    }

    deinit {
        restore()
        signals.stop()
    }

    // MARK: - Colour

    /// Turns colour on or off at runtime (Settings); every cell is written again next draw.
    public func setColorEnabled(_ on: Bool) {
        guard on != colorEnabled else { return }
        colorEnabled = on
        previousGrid = nil
    }

    /// Sets the theme asked for; when that (or the terminal's answer about its background)
    /// changes the theme drawn, the colour pairs are redefined and every cell written again.
    public func setTheme(_ theme: Theme) {
        let resolved = theme.resolved(background: answers.background)
        guard resolved != drawnTheme else { return }
        drawnTheme = resolved
        if colorsUsable, screen != nil { defineColorPairs() }
        previousGrid = nil
    }

    // MARK: - Drawing

    /// Copies the frame to the screen: only cells that changed since the last draw (all of
    /// them after a resize, Ctrl-Z or colour change), then the cursor, in one doupdate.
    public func draw(_ frame: Frame) {
        guard screen != nil else { return }
        let window = ts_stdscr()
        let grid = frame.grid
        let rows = min(grid.height, Int(ts_lines()))
        let columns = min(grid.width, Int(ts_cols()))
        recyclePreviewPairsIfLow()
        var previous = previousGrid
        if screenIsGarbled || previous?.width != grid.width || previous?.height != grid.height {
            previous = nil
        }
        let images = imagesToPlace(frame.images, repaintingAll: previous == nil)
        if previous == nil {
            werase(window)  // cells the grid does not cover stay blank
            if screenIsGarbled { clearok(window, true) }
        }

        for row in 0..<rows {
            if let previous, grid.row(row, equals: previous) { continue }
            let cells = row * grid.width..<(row + 1) * grid.width
            // Blanks in a gap are drawn in the style around them; one drawn so before is drawn
            // again when its style changes (left in curses' screen, it would keep curses from
            // erasing the line there). The previous grid was drawn with today's looks: a change
            // of colours or theme forgets it.
            let styles = TerminalStyle.drawnStyles(grid.cells[cells], look: terminalStyle)
            let drawnBefore = previous.map { TerminalStyle.drawnStyles($0.cells[cells], look: terminalStyle) }
            var column = 0
            while column < columns {
                let wide = column + 1 < grid.width && grid[row, column + 1].isContinuation
                defer { column += wide ? 2 : 1 }
                var cell = grid[row, column]
                // A continuation without a wide cell before it is malformed; the erase covers it.
                guard !cell.isContinuation else { continue }
                if let previous, let drawnBefore, !Self.cellChanged(at: row, column, from: previous, to: grid),
                    styles[column] == drawnBefore[column]
                {
                    continue
                }
                cell.style = styles[column]
                put(cell, row: row, column: column, columns: wide ? 2 : 1)
            }
        }

        if let cursor = frame.cursor, (0..<rows).contains(cursor.row), (0..<columns).contains(cursor.column) {
            wmove(window, Int32(cursor.row), Int32(cursor.column))
            wnoutrefresh(window)
            doupdate()
            setCursorVisible(true)  // after the update, so the cursor does not flicker across it
        } else {
            setCursorVisible(false)
            wnoutrefresh(window)
            doupdate()
        }
        for image in images { writeToTTY(Self.placement(of: image)) }
        previousGrid = grid
        screenIsGarbled = false
    }

    func put(_ cell: Cell, row: Int, column: Int, columns: Int) {
        let (scalars, padsContinuation) = TerminalStyle.drawable(
            cell.text, columns: columns, unicode: isUnicode,
            width: { Int(ts_wcwidth(wchar_t(bitPattern: $0.value))) }
        )
        let (attributes, pair) = cell.paint.flatMap(previewLook) ?? look(of: cell.style)
        scalarBuffer.removeAll(keepingCapacity: true)
        scalarBuffer.append(contentsOf: scalars.map { wchar_t(bitPattern: $0.value) })
        scalarBuffer.append(0)
        // ERR at the bottom-right cell (the cursor cannot advance past it) is expected: the
        // cell is drawn all the same.
        _ = ts_put_cell(Int32(row), Int32(column), scalarBuffer, attributes, pair)
        if padsContinuation {
            _ = ts_put_cell(Int32(row), Int32(column + 1), [0x20, 0], attributes, pair)
        }
    }

    /// How a kind of cell looks here: its theme's colours, or monochrome attributes alone.
    func terminalStyle(_ style: CellStyle) -> TerminalStyle {
        supportsColor
            ? TerminalStyle.colored(style, theme: drawnTheme, colors: colorCount)
            : TerminalStyle(.terminalDefault, .terminalDefault, TerminalStyle.monochrome(style))
    }

    /// Curses attributes and colour pair for a kind of cell, in colour or monochrome.
    func look(of style: CellStyle) -> (attr_t, Int16) {
        (Self.cursesAttributes(terminalStyle(style).attributes), supportsColor ? Self.colorPair(style) : 0)
    }

    private func setCursorVisible(_ visible: Bool) {
        guard cursorVisible != visible else { return }
        curs_set(visible ? 1 : 0)
        cursorVisible = visible
    }

    // MARK: - Raw tty output and the crash path

    /// Writes terminal control sequences curses knows nothing about (bracketed paste).
    func writeToTTY(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(ttyDescriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    /// A string capability of the current terminal, without its padding (`$<50>`); nil when
    /// the terminal lacks it.
    private static func capability(_ name: String) -> String? {
        guard let value = tigetstr(name), Int(bitPattern: value) != -1, value.pointee != 0 else { return nil }
        var text = ""
        var rest = Substring(String(cString: value))
        while let dollar = rest.firstIndex(of: "$") {
            text += rest[..<dollar]
            let after = rest[dollar...].dropFirst()
            if after.first == "<", let close = after.firstIndex(of: ">") {
                rest = after[after.index(after: close)...]  // padding such as $<50>: a delay, not output
            } else {
                text.append("$")
                rest = after
            }
        }
        text += rest
        return text.isEmpty ? nil : text
    }

    /// What a crash writes to the tty before dying (see CrashGuard): bracketed paste and mouse
    /// reporting off, keypad mode off, cursor shown, alternate screen left.
    private static let crashReset = "\u{1B}[?2004l\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1006l\u{1B}[?1l\u{1B}>\u{1B}[?25h\u{1B}[?1049l"

    /// Hands the tty descriptor and the modes saved at start to the crash guard, which keeps its
    /// own copies in static C storage that a signal handler may read.
    private static func armEmergencyRestore(descriptor: Int32, modes: termios) {
        var modes = modes
        // As on a normal exit, a terminal without an alternate screen is cleared too.
        let clear = capability("rmcup") == nil ? capability("clear") ?? "" : ""
        let reset = Array((crashReset + clear).utf8)
        reset.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { tsg_arm_terminal(descriptor, &modes, $0.baseAddress, $0.count) }
        }
    }
}
