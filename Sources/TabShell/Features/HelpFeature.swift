import Foundation

// MARK: - State

/// The `?` sheet: every key binding, generated from `KeyMap`, scrolled to `scrollOffset`.
public struct HelpState: Equatable, Sendable {
    /// The first line shown.
    public var scrollOffset = 0
}

// MARK: - Actions

/// What happens in the help sheet.
public enum HelpAction: Equatable, Sendable {
    case input(FocusInput)
    /// The terminal changed size: keep the last screenful in view.
    case resized
}

// MARK: - Reducer

extension HelpState {
    /// The help reducer; `rows` is the number of lines the sheet shows, `lineCount` the number
    /// it lists (`KeyMap.helpLines(in:unicode:)`).
    public mutating func send(_ action: HelpAction, rows: Int, lineCount: Int) -> Outcome {
        switch action {
        case let .input(.moved(move)):
            scrollOffset = move.scrolling(scrollOffset, rows: rows)
            clamp(rows: rows, lineCount: lineCount)
            return .none
        case .input(.escape):
            return .request(.closeSheet)
        case .input(.activated), .input(.clicked):
            return .none
        case .resized:
            clamp(rows: rows, lineCount: lineCount)
            return .none
        }
    }

    private mutating func clamp(rows: Int, lineCount: Int) {
        scrollOffset = min(max(0, scrollOffset), max(0, lineCount - rows))
    }
}
