/// The terminal a client asked for (`pty-req`).
public struct SSHPseudoTerminal: Sendable, Equatable {
    /// The client's TERM, e.g. `xterm-256color`.
    public var term: String
    public var columns: Int
    public var rows: Int

    public init(term: String, columns: Int, rows: Int) {
        self.term = term
        self.columns = columns
        self.rows = rows
    }
}
