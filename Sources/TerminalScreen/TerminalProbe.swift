import CNcursesw
import Domain
import Glibc
import TabShell
import TerminalInput

/// What `doctor` learned by asking the terminal about graphics.
public enum TerminalProbeResult: Equatable {
    /// Standard output is not a terminal (a pipe, a file, a test): nothing was asked, since the
    /// answers would go to whatever reads the terminal, not to us.
    case notAsked
    /// Asked; no (complete) answer came within the limit.
    case noAnswer
    case answered(TerminalAnswers, windowCellPixels: CellPixels?)
}

/// Asks the terminal on /dev/tty the graphics questions outside the app (for `doctor`): the
/// terminal's own mode is set to read the answers byte by byte without echo, and put back.
public enum TerminalProbe {
    public static func ask(within limit: Duration) -> TerminalProbeResult {
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return .noAnswer }
        defer { close(descriptor) }
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { return .noAnswer }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 0  // VMIN: reads return what there is
        raw.c_cc.5 = 0  // VTIME
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { return .noAnswer }
        defer {
            // Whatever came late must not land on the shell's prompt.
            tcflush(descriptor, TCIFLUSH)
            tcsetattr(descriptor, TCSANOW, &saved)
        }
        let query = Array(TerminalQuery.text.utf8)
        guard query.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == query.count else { return .noAnswer }

        var decoder = InputDecoder()
        var answers = TerminalAnswers()
        let deadline = ContinuousClock.now.advanced(by: limit)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !answers.isComplete {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { break }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let result = poll(&ready, 1, milliseconds)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { break }
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            // The answers are ASCII; anything else read here is dropped with the keys.
            for byte in buffer[0..<count] {
                for case let .reply(reply) in decoder.feed(Unicode.Scalar(byte)) { answers.take(reply) }
            }
        }
        guard answers.isComplete else { return .noAnswer }
        var width: Int32 = 0, height: Int32 = 0, rows: Int32 = 0, columns: Int32 = 0
        var cell: CellPixels?
        if ts_tty_pixels_and_size(descriptor, &width, &height, &rows, &columns) == 0, rows > 0, columns > 0 {
            cell = CellPixels(width: Int(width / columns), height: Int(height / rows))
        }
        return .answered(answers, windowCellPixels: cell)
    }
}
