import CaptureMode
import Foundation

extension AppState {
    // MARK: - The mouse wheel

    /// One step of the wheel, to what is under the pointer. What is presented over the tabs is
    /// modal (the tab behind it takes no input), so it takes the wheel wherever the pointer is:
    /// the help sheet and capture's list of keys scroll, search's results and capture's lists
    /// move, the viewer steps to the previous or next photo, and an alert keeps everything
    /// still. With nothing presented the tab's list, or a record's detail, moves when the
    /// pointer is over the content area; over the heading, the hint line or the tab bar nothing
    /// does.
    mutating func turnWheel(_ turn: WheelTurn) -> [AppEffect] {
        switch focus {
        case .tooSmall, .alert, .question, .capture(.confirmClose):
            return []
        case .viewer:
            return stepViewer(by: turn.step)
        case .help, .search, .capture(.keys):
            return toFocus(.moved(turn.move))
        case .capture(.picker):
            return toCapture(.pickerCursorMoved(by: turn.step))
        case .capture(.photos):
            // The staged photos' list: ↑ and ↓ move its highlight whatever the field holds.
            return toCapture(.cursorMoved(turn.direction == .up ? .up : .down))
        case .capture(.barcode), .capture(.review):
            // Review's fields and a batch's lines scroll (the capture ignores it elsewhere:
            // a single code's field has nothing to scroll).
            return toCapture(.bodyScrolled(by: turn.step))
        case .capture(.note):
            // The note shows its text around the cursor, which the arrow keys move.
            return []
        case .inbox, .history, .historyDetail, .settings:
            guard contentArea.contains(turn.row) else { return [] }
            return moveFocusedList(turn.move)
        }
    }

    /// The screen rows of the content area (``Layout/contentArea(barOnTop:)``, where Render's
    /// `ShellLayout` draws it too).
    public var contentArea: Range<Int> { layout.contentArea(barOnTop: settings.tabBarPosition == .top) }
}
