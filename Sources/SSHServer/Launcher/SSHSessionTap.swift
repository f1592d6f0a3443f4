/// Sees a terminal session as its client does: everything the child wrote to its terminal and
/// each size the terminal was given, then the end (`tabshell serve --record` writes a cast from
/// it). Called on the session's event loop, in order: keep each call short.
public protocol SSHSessionTap: Sendable {
    /// Bytes the child wrote, as read from the terminal (a UTF-8 sequence may be cut).
    func childWrote(_ bytes: UnsafeRawBufferPointer)
    /// The child's terminal was set to this size (after the server's clamp).
    func terminalResized(columns: Int, rows: Int)
    /// The session is over (the child's output has ended, or the client left); called once.
    func sessionEnded()
}
