import CPty

#if canImport(Glibc)
import Glibc
#endif

/// Adds to `actions` the closing of every descriptor but 0, 1 and 2: a child of the test runner
/// (a tmux server above all, which outlives its test) keeps none of other tests' sockets and
/// terminals open. Without it a server's close of a connection never reached the client while
/// a tmux server another test started held the socket.
public func closeEveryOtherDescriptor(_ actions: inout posix_spawn_file_actions_t) {
    _ = cpty_file_actions_close_from(&actions, 3)
}
