import TabShell

/// One thing the terminal told the app, decoded from the bytes it sent.
public enum InputEvent: Equatable, Sendable {
    case key(Key)
    /// Mouse button 1 went down on this cell (0-based).
    case click(row: Int, column: Int)
    /// One step of the mouse wheel, with the cell under the pointer.
    case wheel(WheelTurn)
    /// An answer to a query the app sent (device attributes, a graphics-protocol reply), whole,
    /// introducer included: `"\u{1B}[?62;4c"`. Never a key.
    case reply(String)
}
