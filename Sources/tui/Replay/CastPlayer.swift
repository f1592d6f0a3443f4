import Foundation
import Recording
import TabShellCommands
import TerminalScreen

/// `tabshell replay`'s terminal half: plays a cast on /dev/tty at its speed (pauses shortened
/// to the idle limit) through ``ReplayFilter``, in the alternate screen and raw mode; space
/// pauses and resumes, → skips the current pause, q (or Ctrl-C) quits. The terminal is put back
/// however it ends: the end of the cast, a key, SIGINT, SIGTERM, SIGQUIT or SIGHUP.
enum CastPlayer {
    enum Ending: Equatable {
        case finished
        case quit
        case signal(Int32)
        case terminalGone
    }

    /// Entering: the alternate screen, cleared. Leaving: what a cast may have changed (see
    /// ReplayFilter's kept list) back to defaults, the cursor shown, the main screen.
    static let enter = "\u{1B}[?1049h\u{1B}[H\u{1B}[2J"
    static let leave =
        "\u{1B}[0m\u{1B}[r\u{1B}[?6l\u{1B}[?7h\u{1B}[4l\u{1B}(B\u{0F}\u{1B}[0 q\u{1B}[?12l\u{1B}[?2026l\u{1B}[?25h\u{1B}[?1049l"

    static func play(_ cast: Cast, idleLimit: Double, speed: Double) throws(Failure) -> Ending {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw Failure("tabshell replay needs a terminal: /dev/tty could not be opened.") }
        defer { close(descriptor) }
        guard let terminal = RawTerminal(descriptor: descriptor) else {
            throw Failure("tabshell replay needs a terminal: /dev/tty is not one.")
        }
        guard let signals = try? SignalWatcher(signals: [SIGINT, SIGTERM, SIGHUP, SIGQUIT]) else {
            throw Failure("tabshell replay could not set up signal handling.")
        }
        defer { signals.stop() }
        terminal.enterRaw()
        defer {
            RawTerminal.writeAll(descriptor, leave.utf8)
            terminal.restore()
        }
        guard RawTerminal.writeAll(descriptor, enter.utf8) else { return .terminalGone }

        var playback = CastPlayback(events: cast.events, idleLimit: idleLimit, speed: speed, startingAt: monotonicSeconds())
        var filter = ReplayFilter()
        var input = [UInt8](repeating: 0, count: 256)
        while true {
            for event in playback.due(at: monotonicSeconds()) {
                guard case .output(let text) = event.kind else { continue }
                guard RawTerminal.writeAll(descriptor, filter.filter(text).utf8) else { return .terminalGone }
            }
            if playback.isFinished { return .finished }
            // Woken at least once a second, so nothing depends on a single long timeout.
            let wait = playback.secondsUntilNext(at: monotonicSeconds()).map { min(1000, Int32(($0 * 1000).rounded(.up))) } ?? 1000
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals.wakeDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, wait)
            if ready < 0, errno != EINTR { return .terminalGone }
            if descriptors[1].revents != 0, let signal = signals.takePending().first { return .signal(signal) }
            let terminalEvents = descriptors[0].revents
            if terminalEvents & Int16(POLLIN) != 0 {
                let count = read(descriptor, &input, input.count)
                if count <= 0 {
                    if count < 0, errno == EINTR || errno == EAGAIN { continue }
                    return .terminalGone
                }
                let now = monotonicSeconds()
                for key in ReplayKeys.read(input[0..<count]) {
                    switch key {
                    case .quit: return .quit
                    case .pause: playback.togglePause(at: now)
                    case .skip: playback.skipIdle(at: now)
                    }
                }
            } else if terminalEvents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                return .terminalGone
            }
        }
    }
}

/// The player's keys, from raw bytes: q, Q or Ctrl-C quit; space pauses; → (ESC [ C or
/// ESC O C) skips the pause. Anything else is ignored.
enum ReplayKeys: Equatable {
    case quit, pause, skip

    static func read(_ bytes: ArraySlice<UInt8>) -> [ReplayKeys] {
        var keys: [ReplayKeys] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x1B, index + 2 < bytes.endIndex, bytes[index + 1] == 0x5B || bytes[index + 1] == 0x4F, bytes[index + 2] == 0x43 {
                keys.append(.skip)
                index += 3
                continue
            }
            switch byte {
            case 0x71, 0x51, 0x03: keys.append(.quit)
            case 0x20: keys.append(.pause)
            default: break
            }
            index += 1
        }
        return keys
    }
}
