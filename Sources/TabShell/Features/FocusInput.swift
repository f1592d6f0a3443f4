import Foundation

/// Input that goes to whatever has focus. The shell's router decides who that is: an alert
/// first, then a sheet, then capture, then the selected tab.
public enum FocusInput: Equatable, Sendable {
    /// A move in the focused list (or a scroll of the focused text).
    case moved(ListMove)
    /// Enter on the highlighted row.
    case activated
    /// A click on a list row, by its index in the list.
    case clicked(row: Int)
    /// Esc: close or go back, whichever the focused screen does.
    case escape
}
