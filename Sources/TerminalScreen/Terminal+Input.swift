import CCrashGuard
import CNcursesw
import Glibc
import Render
import TabShell
import TerminalInput

/// Reading the terminal: keys and replies through the input decoder, signals, resizes, Ctrl-Z.
extension Terminal {
    // MARK: - Events

    /// A closure any thread may call to make `nextEvent` return `.wake`.
    public func waker() -> @Sendable () -> Void { signals.waker() }

    /// Waits for the next event, at most `milliseconds` (nil: as long as it takes).
    ///
    /// Sleeps in poll() on the tty and the signal self-pipe, never busy-waits. Input already
    /// buffered by curses is always read before sleeping. Signals asking to quit come first.
    public func nextEvent(timeout milliseconds: Int?) -> TerminalEvent {
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
    static func pollMilliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, milliseconds))
    }

    /// Reads everything curses has or can read now, decoding it into `pending`. Returns
    /// whether anything at all was read.
    func readInput() -> Bool {
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

    func enqueue(_ event: InputEvent) {
        switch event {
        case let .key(key): enqueue(TerminalEvent.key(key))
        case let .click(row, column): enqueue(TerminalEvent.click(row: row, column: column))
        case let .wheel(turn): enqueue(TerminalEvent.wheel(turn))
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
    public func repaint() {
        reportSizeIfChanged(force: true)
    }

    // MARK: - Signals, resize, Ctrl-Z

    private func handleSignals() {
        for signal in signals.takePending() {
            if let quit = QuitSignal(rawValue: signal) {
                addQuit(quit)
                continue
            }
            switch signal {
            case SIGTSTP: suspend()
            case SIGCONT: continued()
            case SIGWINCH: reportSizeIfChanged()
            case SIGUSR1: enqueue(.closingSoon)
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
    public func suspend() {
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
}
