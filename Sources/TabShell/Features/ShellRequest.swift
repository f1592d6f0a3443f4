import CaptureMode
import Domain
import Foundation

/// What a feature asks of the shell: the things only the shell can do, because they change what
/// is presented, which tab shows, or the status line every screen shares.
public enum ShellRequest: Equatable, Sendable {
    /// Replace the status line (nil clears it).
    case status(StatusMessage?)
    /// Ask a question or tell something, over whatever is presented.
    case present(Alert)
    /// Open capture mode for this Inbox request.
    case startCapture(InboxRequest)
    /// Present this capture as it is (a resumed draft).
    case presentCapture(CaptureState)
    /// Show this record's detail in History (a child switching tabs, seed 002).
    case openRecord(HistoryRow)
    /// Ask whether to delete every History record.
    case clearHistory
    /// Close the sheet that is showing.
    case closeSheet
}
