import CCrashGuard
import CNcursesw
import Glibc
import Render
import TabShell
import TerminalInput

/// Something that happened at the terminal, in the app's terms.
enum TerminalEvent: Equatable {
    case key(Key)
    /// Button 1 went down on this cell.
    case click(row: Int, column: Int)
    /// One step of the mouse wheel.
    case scroll(up: Bool)
    /// The terminal changed size, or came back from Ctrl-Z and needs drawing again.
    case resized(ScreenSize)
    /// A signal asking the app to end; returned before anything else that is pending.
    case signal(QuitSignal)
    /// The terminal is gone (closed, hung up, unreadable): the app must exit, not spin.
    case hangup
    /// Another thread called the waker: work it finished is waiting in the app's mailbox.
    case wake
    /// Nothing happened within the timeout given to `nextEvent`.
    case timeout
    /// The terminal's answers to the graphics queries came in after start-up stopped waiting.
    case terminalAnswered(TerminalAnswers)
}

/// The signals that end the app: SIGINT, SIGTERM, SIGHUP and SIGQUIT.
enum QuitSignal: Equatable, Sendable {
    case interrupt, terminate, hangup, quit
}

/// Why the terminal could not be used, as one sentence for the user.
struct TerminalError: Error, Equatable {
    let message: String
}

/// The terminal: the only code in tabshell that talks to curses.
///
/// It copies rendered grids to the screen (only the cells that changed), turns input, mouse
/// reports and signals into `TerminalEvent`s, handles Ctrl-Z and resizes itself, and puts the
/// terminal back exactly as it found it on `restore()`. Use it from one thread only.
final class Terminal {
    // MARK: - Tuning

    /// A paste whose end marker has not come after this much silence is delivered as it is.
    private static let pasteSilence: Duration = .seconds(2)
    /// Reads that find nothing although poll() said the tty was readable: the tty hit EOF.
    private static let emptyReadsMeaningHangup = 8
    /// Bracketed paste, and mouse reports in SGR form (ESC [ < b ; x ; y M), which stay plain
    /// ASCII at any column where the X10 form's raw bytes do not survive a UTF-8 decoder.
    private static let inputModesOn = "\u{1b}[?2004h\u{1b}[?1006h"
    private static let inputModesOff = "\u{1b}[?1006l\u{1b}[?2004l"
    /// The signals we watch. None is at its default when newterm runs, so curses installs no
    /// handlers of its own: resizes, Ctrl-Z and quitting all happen on the main thread.
    private static let watchedSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGCONT, SIGWINCH]

    /// The watched signals, less SIGHUP when it was already ignored at start: run under
    /// `nohup` (or by a parent that ignores it), tabshell keeps ignoring hang-ups and notices a
    /// lost terminal from the tty itself (EOF, EIO, POLLHUP) instead.
    private static func signalsToWatch() -> [Int32] {
        watchedSignals.filter { $0 != SIGHUP || !isIgnored(SIGHUP) }
    }

    /// A blocked signal mask is inherited across exec. Started with SIGTSTP blocked (as under
    /// some test runners and supervisors), Ctrl-Z never stopped the process: the SIGTSTP it
    /// sends itself stayed pending and came back as another Ctrl-Z, a busy loop of suspend and
    /// redraw. Unblock what we watch on this thread before any thread of ours is made.
    private static func unblockWatchedSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in watchedSignals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
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
    private var screen: OpaquePointer?
    private let tty: UnsafeMutablePointer<FILE>
    private let ttyDescriptor: Int32
    /// The tty modes from before curses started, put back by `restore()`.
    private var originalModes: termios
    private let signals: SignalWatcher
    private var decoder = InputDecoder()
    /// Events decoded but not yet returned (one input burst can hold several).
    private var pending: [TerminalEvent] = []
    private var pendingQuits: [QuitSignal] = []
    /// The size last reported with `.resized`, so each change is reported once.
    private var reportedSize: ScreenSize
    private var hungUp = false
    private var ttyWasReadable = false
    private var emptyReads = 0
    private var lastInput = ContinuousClock.now
    /// Set while stopped by our own Ctrl-Z handling: the SIGCONT that follows is already handled.
    private var awaitingOwnContinue = false

    // Drawing
    /// The grid on screen, diffed against the next one; nil forces every cell to be written.
    private var previousGrid: Grid?
    /// The screen may not show what curses thinks (resize, back from Ctrl-Z): clear and repaint.
    private var screenIsGarbled = true
    private var cursorVisible: Bool?
    private var colorEnabled: Bool
    /// The terminal has at least 8 colours and a pair for every CellStyle.
    private let colorsUsable: Bool
    /// `use_default_colors` worked: -1 is the terminal's own foreground or background.
    private var hasDefaultColors = false
    private var scalarBuffer: [wchar_t] = []

    // Photo previews' colours: pairs allocated on demand, keyed by (foreground, background)
    // palette indexes, from a range the styles' pairs (1...CellStyle count) never reach.
    private static let firstPreviewPair: Int32 = 64
    private var previewPairs: [UInt32: Int16] = [:]
    private var nextPreviewPair = Terminal.firstPreviewPair
    /// The last pair number previews may use; below `firstPreviewPair` when they can use none.
    private let lastPreviewPair: Int32

    // Graphics: what the terminal answered, and the pictures on screen now.
    /// The answers to `TerminalQuery` so far.
    private var answers = TerminalAnswers()
    /// The query was sent and its last answer has not come yet.
    private var awaitingAnswers = false
    /// Start-up stopped waiting for the answers: when they complete, say so with an event.
    private var reportsLateAnswers = false
    /// The graphics pictures drawn over the last frame, where they are.
    private var placedImages: [FrameImage] = []

    /// The locale's codeset is UTF-8; otherwise everything is drawn in ASCII.
    let isUnicode: Bool

    var size: ScreenSize {
        screen == nil ? reportedSize : ScreenSize(rows: Int(ts_lines()), columns: Int(ts_cols()))
    }

    /// Colour is in use: the terminal has colours and neither NO_COLOR nor Settings turned it off.
    var supportsColor: Bool { colorsUsable && colorEnabled }

    /// curses' COLORS: how many colours the terminal has (0 without colour).
    let colorCount: Int

    /// The colours photo previews can be drawn in: COLORS when at least 256 colour pairs are
    /// free for them, else 0 (previews are then monochrome rather than short of pairs).
    var previewColorCount: Int {
        Int(lastPreviewPair - Self.firstPreviewPair + 1) >= 256 ? colorCount : 0
    }

    // MARK: - Start and restore

    /// Takes over the terminal on /dev/tty (so it works with stdin or stdout redirected).
    /// `colorAllowed` is false when NO_COLOR is set non-empty or Settings turned colour off.
    /// Throws, leaving the terminal untouched, when there is no terminal or TERM cannot be used.
    init(colorAllowed: Bool) throws(TerminalError) {
        guard let termValue = getenv("TERM"), termValue.pointee != 0 else {
            throw TerminalError(message: "tabshell needs a terminal: TERM is not set.")
        }
        let term = String(cString: termValue)
        guard term != "dumb" else {
            throw TerminalError(message: "tabshell needs a terminal that can move the cursor; TERM=dumb cannot.")
        }
        setlocale(LC_ALL, "")  // before curses, so it reads and writes UTF-8 when the locale says so

        guard let tty = fopen("/dev/tty", "r+") else {
            throw TerminalError(message: "tabshell needs a terminal: /dev/tty could not be opened (\(Self.errnoText())).")
        }
        let descriptor = fileno(tty)
        var modes = termios()
        guard tcgetattr(descriptor, &modes) == 0 else {
            fclose(tty)
            throw TerminalError(message: "tabshell needs a terminal: /dev/tty is not one.")
        }
        var canAddress: Int32 = 0
        switch ts_check_terminfo(term, descriptor, &canAddress) {
        case 1 where canAddress != 0:
            break
        case 1:
            fclose(tty)
            throw TerminalError(message: "tabshell needs a terminal that can move the cursor; TERM=\(term) cannot.")
        case -1:
            fclose(tty)
            throw TerminalError(message: "tabshell could not find the terminfo database to look up TERM=\(term).")
        default:
            fclose(tty)
            throw TerminalError(message: "tabshell needs a terminal it knows: TERM=\(term) is not in terminfo.")
        }

        Self.unblockWatchedSignals()
        let signals: SignalWatcher
        do {
            signals = try SignalWatcher(signals: Self.signalsToWatch())
        } catch {
            fclose(tty)
            throw error
        }
        guard let screen = newterm(term, tty, tty) else {
            signals.stop()
            tcsetattr(descriptor, TCSANOW, &modes)
            fclose(tty)
            throw TerminalError(message: "tabshell could not start the terminal (TERM=\(term)).")
        }

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
        // cbreak, not raw: ISIG stays on, so Ctrl-C, Ctrl-Z and Ctrl-\ arrive as signals.
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
    /// screen until Ctrl-Q and neither key reaches the app. def_prog_mode makes curses keep
    /// this across Ctrl-Z.
    private func allowFlowControlKeys() {
        var modes = termios()
        guard tcgetattr(ttyDescriptor, &modes) == 0 else { return }
        modes.c_iflag &= ~tcflag_t(IXON)
        tcsetattr(ttyDescriptor, TCSANOW, &modes)
        def_prog_mode()
    }

    /// One colour pair per CellStyle (pair = rawValue + 1; pair 0 is the terminal's default).
    private func defineColorPairs() {
        hasDefaultColors = use_default_colors() == OK
        for style in CellStyle.allCases {
            let look = TerminalStyle.colored(style)
            // Without default colours "-1" is invalid; white on black is curses' own default.
            let foreground =
                look.foreground == .terminalDefault && !hasDefaultColors
                ? TerminalStyle.Color.white : look.foreground
            let background =
                look.background == .terminalDefault && !hasDefaultColors
                ? TerminalStyle.Color.black : look.background
            init_pair(Self.colorPair(style), foreground.rawValue, background.rawValue)
        }
    }

    /// Puts the terminal back as it was: mouse reporting and bracketed paste off, cursor
    /// shown, main screen, original tty modes. Idempotent; the terminal is unusable afterwards.
    /// Signals stay caught (and `nextEvent` reports them) until the Terminal is released, so
    /// cleanup after restoring is not cut short by a second Ctrl-C.
    func restore() {
        guard let screen else { return }
        Self.disarmEmergencyRestore()
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
    func setColorEnabled(_ on: Bool) {
        guard on != colorEnabled else { return }
        colorEnabled = on
        previousGrid = nil
    }

    // MARK: - Drawing

    /// Copies the frame to the screen: only cells that changed since the last draw (all of
    /// them after a resize, Ctrl-Z or colour change), then the cursor, in one doupdate.
    func draw(_ frame: Frame) {
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
            var column = 0
            while column < columns {
                let wide = column + 1 < grid.width && grid[row, column + 1].isContinuation
                defer { column += wide ? 2 : 1 }
                let cell = grid[row, column]
                // A continuation without a wide cell before it is malformed; the erase covers it.
                guard !cell.isContinuation else { continue }
                if let previous, !Self.cellChanged(at: row, column, from: previous, to: grid) { continue }
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

    // MARK: - Graphics pictures

    /// Before the cells of a frame are drawn: takes away the pictures on screen that the frame
    /// no longer has where they are, and returns those to draw once the cells are out. Idle
    /// frames place nothing: a picture that stays is not sent again.
    ///
    /// kitty keeps pictures on a layer of their own, so they are deleted (by a cell they cover).
    /// A sixel or iTerm2 picture is paint over cells that curses believes hold blanks: its
    /// lines are marked garbled so the update writes them again, over the picture. When every
    /// cell is drawn again (a resize, Ctrl-L, back from Ctrl-Z, a change of colour) every
    /// picture goes and comes back.
    private func imagesToPlace(_ images: [FrameImage], repaintingAll: Bool) -> [FrameImage] {
        let window = ts_stdscr()
        if screenIsGarbled {
            removeKittyImages()
            placedImages = []
        }
        let keptKitty = repaintingAll ? [] : placedImages.filter { $0.picture.graphics == .kitty && images.contains($0) }
        let kept = repaintingAll ? keptKitty : placedImages.filter { images.contains($0) }
        for image in placedImages where !kept.contains(image) {
            switch image.picture.graphics {
            case .kitty:
                if !keptKitty.contains(image) { writeToTTY(Self.kittyDeletion(at: image)) }
            case .sixel, .iterm2:
                wredrawln(window, Int32(image.row), Int32(image.size.rows))
            }
        }
        placedImages = images
        return images.filter { !kept.contains($0) }
    }

    /// Save the cursor, move to the picture's corner, draw it, put the cursor back (so curses'
    /// idea of where the cursor is stays true).
    private static func placement(of image: FrameImage) -> String {
        "\u{1B}7\u{1B}[\(image.row + 1);\(image.column + 1)H" + image.picture.sequence + "\u{1B}8"
    }

    /// kitty: delete the placements (and free the data) of the pictures covering a cell.
    private static func kittyDeletion(at image: FrameImage) -> String {
        "\u{1B}_Ga=d,d=P,x=\(image.column + 1),y=\(image.row + 1),q=2\u{1B}\\"
    }

    /// kitty: delete every picture we placed (leaving the screen, Ctrl-Z, a garbled screen).
    private func removeKittyImages() {
        guard placedImages.contains(where: { $0.picture.graphics == .kitty }) else { return }
        writeToTTY("\u{1B}_Ga=d,d=A,q=2\u{1B}\\")
        placedImages.removeAll { $0.picture.graphics == .kitty }
    }

    // MARK: - Asking about graphics

    /// Writes `TerminalQuery` and reads the answers for at most `limit` (less once the last
    /// answer is in). Keys typed meanwhile are kept and come out of `nextEvent` afterwards.
    /// Nil when the terminal did not answer in time; should its answers come later, `nextEvent`
    /// reports them as `.terminalAnswered`.
    func askAboutGraphics(within limit: Duration) -> TerminalAnswers? {
        guard screen != nil else { return nil }
        writeToTTY(TerminalQuery.text)
        awaitingAnswers = true
        let deadline = ContinuousClock.now.advanced(by: limit)
        while awaitingAnswers, !hungUp {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            var descriptor = pollfd(fd: ttyDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Self.pollMilliseconds(left))
            if ready < 0, errno != EINTR { break }
            if ready > 0 { _ = readInput() }
        }
        if awaitingAnswers {
            reportsLateAnswers = true
            return nil
        }
        return answers
    }

    /// The cell size from the tty's window size in pixels, when the terminal fills it in.
    var windowCellPixels: CellPixels? {
        var width: Int32 = 0, height: Int32 = 0
        guard ts_tty_pixels(ttyDescriptor, &width, &height) == 0, ts_cols() > 0, ts_lines() > 0 else { return nil }
        return CellPixels(width: Int(width / ts_cols()), height: Int(height / ts_lines()))
    }

    /// An answer to the graphics queries; others (nobody asked) are dropped.
    private func take(_ reply: String) {
        guard awaitingAnswers, answers.take(reply), answers.isComplete else { return }
        awaitingAnswers = false
        if reportsLateAnswers { pending.append(.terminalAnswered(answers)) }
    }

    /// A cell must be written again when it changed, or when the cell after it changed and
    /// either version of that cell is the right half of a wide character (the pair is one unit).
    private static func cellChanged(at row: Int, _ column: Int, from old: Grid, to new: Grid) -> Bool {
        if old[row, column] != new[row, column] { return true }
        guard column + 1 < new.width else { return false }
        let oldNext = old[row, column + 1], newNext = new[row, column + 1]
        return oldNext != newNext && (oldNext.isContinuation || newNext.isContinuation)
    }

    private func put(_ cell: Cell, row: Int, column: Int, columns: Int) {
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

    /// Curses attributes and colour pair for a kind of cell, in colour or monochrome.
    private func look(of style: CellStyle) -> (attr_t, Int16) {
        if supportsColor {
            return (Self.cursesAttributes(TerminalStyle.colored(style).attributes), Self.colorPair(style))
        }
        return (Self.cursesAttributes(TerminalStyle.monochrome(style)), 0)
    }

    // MARK: - Photo preview colours

    /// A preview cell's look: plain attributes and the pair of its two palette colours. Nil
    /// when previews cannot have colours here (colour off, fewer than 256 colours, or no pair
    /// left this frame), and the cell is drawn as plain text: the shapes still show the picture.
    private func previewLook(_ paint: CellPaint) -> (attr_t, Int16)? {
        guard supportsColor, lastPreviewPair >= Self.firstPreviewPair else { return nil }
        let defaultForeground: Int16 = hasDefaultColors ? -1 : Int16(COLOR_WHITE)
        let defaultBackground: Int16 = hasDefaultColors ? -1 : Int16(COLOR_BLACK)
        let foreground = paint.foreground.map { Int16($0.index256) } ?? defaultForeground
        let background = paint.background.map { Int16($0.index256) } ?? defaultBackground
        let key = UInt32(UInt16(bitPattern: foreground)) << 16 | UInt32(UInt16(bitPattern: background))
        if let pair = previewPairs[key] { return (ts_a_normal(), pair) }
        guard nextPreviewPair <= lastPreviewPair else { return nil }
        let pair = Int16(nextPreviewPair)
        guard init_pair(pair, foreground, background) == OK else { return nil }
        previewPairs[key] = pair
        nextPreviewPair += 1
        return (ts_a_normal(), pair)
    }

    /// Before a frame: when fewer than a quarter of the previews' pairs are left, start the range
    /// again. curses repaints the cells whose pair is redefined, and this frame allocates anew.
    private func recyclePreviewPairsIfLow() {
        let size = lastPreviewPair - Self.firstPreviewPair + 1
        guard size > 0, lastPreviewPair - nextPreviewPair + 1 < size / 4 else { return }
        previewPairs.removeAll(keepingCapacity: true)
        nextPreviewPair = Self.firstPreviewPair
        previousGrid = nil
    }

    private static func cursesAttributes(_ attributes: TerminalStyle.Attributes) -> attr_t {
        var result = ts_a_normal()
        if attributes.contains(.bold) { result |= ts_a_bold() }
        if attributes.contains(.dim) { result |= ts_a_dim() }
        if attributes.contains(.reverse) { result |= ts_a_reverse() }
        if attributes.contains(.underline) { result |= ts_a_underline() }
        return result
    }

    private static func colorPair(_ style: CellStyle) -> Int16 { Int16(style.rawValue) + 1 }

    private func setCursorVisible(_ visible: Bool) {
        guard cursorVisible != visible else { return }
        curs_set(visible ? 1 : 0)
        cursorVisible = visible
    }

    // MARK: - Events

    /// A closure any thread may call to make `nextEvent` return `.wake`.
    func waker() -> @Sendable () -> Void { signals.waker() }

    /// Waits for the next event, at most `milliseconds` (nil: as long as it takes).
    ///
    /// Sleeps in poll() on the tty and the signal self-pipe, never busy-waits. Input already
    /// buffered by curses is always read before sleeping. Signals asking to quit come first.
    func nextEvent(timeout milliseconds: Int?) -> TerminalEvent {
        let deadline = milliseconds.map { ContinuousClock.now.advanced(by: .milliseconds(max(0, $0))) }
        while true {
            handleSignals()
            if !pendingQuits.isEmpty { return .signal(pendingQuits.removeFirst()) }
            if !pending.isEmpty { return pending.removeFirst() }
            if hungUp || screen == nil { return .hangup }

            let readSomething = readInput()
            if readSomething {
                emptyReads = 0
            } else if ttyWasReadable {
                // poll() keeps saying "readable" but nothing comes: EOF on a tty that is gone.
                emptyReads += 1
                if emptyReads >= Self.emptyReadsMeaningHangup { hungUp = true }
            }
            ttyWasReadable = false
            if !pending.isEmpty { continue }
            if hungUp { continue }

            let now = ContinuousClock.now
            var wait = deadline.map { now.duration(to: $0) }
            if decoder.isCollectingPaste {
                let pasteLeft = now.duration(to: lastInput.advanced(by: Self.pasteSilence))
                if pasteLeft <= .zero {
                    // The end marker never came: deliver what arrived.
                    if let paste = decoder.finishPaste() { enqueue(paste) }
                    continue
                }
                wait = min(wait ?? pasteLeft, pasteLeft)
            }
            if let delay = sequenceDelay {
                // A lone Esc, or a sequence cut short: once input is quiet, it is complete.
                let left = now.duration(to: lastInput.advanced(by: delay))
                if left <= .zero {
                    for event in decoder.timeOut() { enqueue(event) }
                    continue
                }
                wait = min(wait ?? left, left)
            }
            if let deadline, deadline <= now { return .timeout }
            waitForInput(upTo: wait)
        }
    }

    /// Sleeps until the tty or the signal pipe is readable, the tty hangs up, a signal
    /// interrupts (SIGWINCH and friends), or `duration` passes.
    private func waitForInput(upTo duration: Duration?) {
        var descriptors = [
            pollfd(fd: ttyDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals.wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        let result = poll(&descriptors, nfds_t(descriptors.count), duration.map(Self.pollMilliseconds) ?? -1)
        if result < 0 {
            if errno != EINTR && errno != EAGAIN { hungUp = true }
            return
        }
        let ttyEvents = Int32(descriptors[0].revents)
        if ttyEvents & (POLLHUP | POLLERR | POLLNVAL) != 0 { hungUp = true }
        if ttyEvents & POLLIN != 0 { ttyWasReadable = true }
    }

    /// Rounded up, so a wait shorter than a millisecond does not turn into a spin of zero waits.
    private static func pollMilliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }

    /// Reads everything curses has or can read now, decoding it into `pending`. Returns
    /// whether anything at all was read.
    private func readInput() -> Bool {
        let window = ts_stdscr()
        var readSomething = false
        var code: wint_t = 0
        while true {
            let status = isUnicode ? wget_wch(window, &code) : readByte(window, into: &code)
            if status == ERR { break }
            readSomething = true
            lastInput = .now
            if status == KEY_CODE_YES {
                // Keypad translation is off; curses still reports its own resize this way.
                if Int32(truncatingIfNeeded: code) == KEY_RESIZE { reportSizeIfChanged() }
                continue
            }
            guard let scalar = Unicode.Scalar(UInt32(code)) else { continue }
            for event in decoder.feed(scalar) { enqueue(event) }
        }
        return readSomething
    }

    /// `wget_wch` for a single-byte locale (LC_ALL=C): there, wget_wch treats a byte above 0x7F
    /// as the start of a character it cannot decode and swallows the rest of the burst with it
    /// (a scanned or pasted "café ok" lost " ok"). Reads one byte or key code instead; a
    /// non-ASCII byte becomes U+FFFD, drawn as "?" in ASCII mode.
    private func readByte(_ window: UnsafeMutablePointer<WINDOW>?, into code: inout wint_t) -> Int32 {
        let value = wgetch(window)
        if value == ERR { return ERR }
        if value >= KEY_MIN {
            code = wint_t(value)
            return KEY_CODE_YES
        }
        code = value < 0x80 ? wint_t(value) : 0xFFFD
        return OK
    }

    /// Queues an event. Characters of one burst that form a single grapheme (a letter and its
    /// accent, an emoji sequence) are joined, since curses delivers them one scalar at a time;
    /// a newer size replaces a queued older one.
    private func enqueue(_ event: TerminalEvent) {
        switch (pending.last, event) {
        case let (.key(.character(previous))?, .key(.character(next))):
            if let joined = Self.joined(previous, next) {
                pending[pending.count - 1] = .key(.character(joined))
                return
            }
        case (_, .resized):
            pending.removeAll { if case .resized = $0 { true } else { false } }
        default:
            break
        }
        pending.append(event)
    }

    /// The character that `previous` and `next` make together, when they are one grapheme
    /// (a letter and its accent, an emoji and its modifier or joiner). Input arrives one scalar
    /// at a time; characters of one burst are joined with this.
    static func joined(_ previous: Character, _ next: Character) -> Character? {
        let text = String(previous) + String(next)
        return text.count == 1 ? text.first : nil
    }

    private func enqueue(_ event: InputEvent) {
        switch event {
        case let .key(key): enqueue(TerminalEvent.key(key))
        case let .click(row, column): enqueue(TerminalEvent.click(row: row, column: column))
        case let .scroll(up): enqueue(TerminalEvent.scroll(up: up))
        case let .reply(reply): take(reply)
        }
    }

    /// How long the decoder may wait for the rest of what it holds, nil when it holds nothing.
    private var sequenceDelay: Duration? {
        switch decoder.waiting {
        case .nothing: nil
        case .escape: InputDecoder.escapeDelay
        case .sequence: InputDecoder.sequenceDelay
        }
    }

    /// Ctrl-L, the terminal convention for "the screen is garbled": reads the size again and
    /// reports it, so the next frame clears the screen and paints every cell.
    func repaint() {
        reportSizeIfChanged(force: true)
    }

    // MARK: - Signals, resize, Ctrl-Z

    private func handleSignals() {
        for signal in signals.takePending() {
            switch signal {
            case SIGINT: addQuit(.interrupt)
            case SIGTERM: addQuit(.terminate)
            case SIGHUP: addQuit(.hangup)
            case SIGQUIT: addQuit(.quit)
            case SIGTSTP: suspend()
            case SIGCONT: continued()
            case SIGWINCH: reportSizeIfChanged()
            case 0: enqueue(.wake)
            default: break
            }
        }
    }

    private func addQuit(_ quit: QuitSignal) {
        if !pendingQuits.contains(quit) { pendingQuits.append(quit) }
    }

    /// Reads the tty's size from the kernel, resizes curses to it, and queues `.resized` when
    /// it differs from the size last reported (or always, with `force`, to get a redraw).
    private func reportSizeIfChanged(force: Bool = false) {
        guard screen != nil else { return }
        var rows: Int32 = 0, columns: Int32 = 0
        if ts_tty_size(ttyDescriptor, &rows, &columns) == 0, rows != ts_lines() || columns != ts_cols() {
            // This also queues KEY_RESIZE in curses; it reads back as "no change" below.
            resizeterm(rows, columns)
        }
        let current = size
        guard force || current != reportedSize else { return }
        reportedSize = current
        screenIsGarbled = true  // terminals reflow or clear on resize
        enqueue(.resized(current))
    }

    /// Ctrl-Z: give the terminal back to the shell, stop, and on `fg` take it again.
    private func suspend() {
        guard screen != nil, pendingQuits.isEmpty else { return }
        removeKittyImages()
        writeToTTY(Self.inputModesOff)
        curs_set(1)
        endwin()
        awaitingOwnContinue = true
        ts_stop_like_ctrl_z()  // returns once continued
        resumeScreen()
    }

    /// SIGCONT: after our own Ctrl-Z it was handled already; otherwise someone stopped us
    /// with SIGSTOP and the shell may have changed modes and drawn over the screen.
    private func continued() {
        if awaitingOwnContinue {
            awaitingOwnContinue = false
            return
        }
        resumeScreen()
    }

    private func resumeScreen() {
        guard screen != nil else { return }
        // Program modes now, so typing before the next frame does not echo; that frame's
        // doupdate brings back the alternate screen, keypad mode and mouse reporting.
        reset_prog_mode()
        writeToTTY(Self.inputModesOn)
        cursorVisible = nil
        screenIsGarbled = true
        reportSizeIfChanged(force: true)
    }

    // MARK: - Raw tty output and the crash path

    /// Writes terminal control sequences curses knows nothing about (bracketed paste).
    private func writeToTTY(_ text: String) {
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

    private static func errnoText() -> String { String(cString: strerror(errno)) }

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

    private static func disarmEmergencyRestore() {
        tsg_disarm_terminal()
    }
}
