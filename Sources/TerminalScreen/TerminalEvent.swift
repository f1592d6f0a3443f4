import CCrashGuard
import CNcursesw
import Glibc
import Render
import TabShell
import TerminalInput

/// Something that happened at the terminal, in the app's terms.
public enum TerminalEvent: Equatable {
    case key(Key)
    /// Button 1 went down on this cell.
    case click(row: Int, column: Int)
    /// One step of the mouse wheel, with the cell under the pointer.
    case wheel(WheelTurn)
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
    /// SIGUSR1: the server this session runs under (`tabshell serve`) will close it soon for
    /// idleness; the app says so on its status line.
    case closingSoon
    /// The terminal's answers to the graphics queries (asked at start, never waited for) are all in.
    case terminalAnswered(TerminalAnswers)
}

/// The signals that end the app: SIGINT, SIGTERM, SIGHUP and SIGQUIT, by their numbers (Linux's).
public enum QuitSignal: Int32, Equatable, Sendable {
    case interrupt = 2, terminate = 15, hangup = 1, quit = 3
}

/// Why the terminal could not be used, as one sentence for the user (its description too, so a
/// command that lets it through prints it as it is).
public struct TerminalError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
