import Foundation

/// One step of the mouse wheel (SGR buttons 64 and 65) with the cell under the pointer
/// (0-based). The model decides what it scrolls (`AppState.turnWheel`): what is presented over
/// the tabs takes it wherever the pointer is; with nothing presented, the tab's list or text
/// takes it when the pointer is over the content, and nothing moves over the heading, the hint
/// line or the tab bar.
public struct WheelTurn: Equatable, Sendable {
    public enum Direction: Equatable, Sendable {
        /// Away from the person (button 64): towards the top of the list.
        case up
        /// Towards the person (button 65): towards the end of the list.
        case down
    }

    public var direction: Direction
    public var row: Int
    public var column: Int

    public init(_ direction: Direction, row: Int, column: Int) {
        self.direction = direction
        self.row = row
        self.column = column
    }

    /// The list move one step of the wheel makes: one row, as ↑ or ↓ does.
    public var move: ListMove { direction == .up ? .up : .down }

    /// -1 up, +1 down: for lists that step by an offset (capture's picker, the photo viewer).
    public var step: Int { direction == .up ? -1 : 1 }
}
