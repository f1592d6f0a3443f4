import Foundation
import Synchronization

/// News that another process may have committed: a hint to read the store's change counter now
/// rather than at the next poll, so what another session (or an agent) writes is on screen in
/// milliseconds. Only a hint: the counter decides, and the poll stays as the floor. Stops when
/// ``stop()`` is called or the value is released.
public final class ChangeHints: Sendable {
    private let stopping: @Sendable () -> Void

    public init(stop: @escaping @Sendable () -> Void) {
        stopping = stop
    }

    /// No more hints (called again, nothing happens).
    public func stop() { stopping() }

    deinit { stopping() }
}

/// A flag raised from any thread (the store's news) and taken by whoever waits on it.
public final class ChangeHint: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public func raise() { flag.store(true, ordering: .releasing) }

    /// Whether it was raised since the last take; lowers it.
    public func take() -> Bool { flag.exchange(false, ordering: .acquiringAndReleasing) }
}

/// Hints from the kernel (Linux inotify) when files in a folder are written: a SQLite store's
/// WAL and main file are written by every commit, whichever process makes it.
public enum FileChangeHints {
    /// The shortest time between two hints: a burst of writes (a long import's pages) is one
    /// hint, and a writer cannot make a reader look more than 50 times a second.
    public static let coalescingMicroseconds: UInt32 = 20_000

    /// Watches `directory` for writes to the files named `names`, calling `hint` on a thread of
    /// the watch's own; nil where inotify cannot be had (its limits reached: the poll remains).
    public static func watch(directory: String, names: Set<String>, hint: @escaping @Sendable () -> Void) -> ChangeHints? {
        #if canImport(Glibc)
        let watcher = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard watcher >= 0 else { return nil }
        let events = UInt32(IN_MODIFY) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)
        guard inotify_add_watch(watcher, directory, events) >= 0 else {
            close(watcher)
            return nil
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            close(watcher)
            return nil
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (stopRead, stopWrite) = (ends[0], ends[1])
        let thread = Thread {
            defer {
                close(watcher)
                close(stopRead)
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                var fds = [pollfd(fd: watcher, events: Int16(POLLIN), revents: 0), pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&fds, 2, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if fds[1].revents != 0 { return }
                guard fds[0].revents != 0 else { continue }
                var relevant = false
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(watcher, $0.baseAddress, $0.count) }
                    guard count > 0 else { break }
                    if !relevant { relevant = Self.names(in: buffer[..<count]).contains(where: names.contains) }
                }
                guard relevant else { continue }
                hint()
                usleep(coalescingMicroseconds)
            }
        }
        thread.name = "tabshell.change-hints"
        thread.start()
        let stopped = Atomic<Bool>(false)
        return ChangeHints {
            guard !stopped.exchange(true, ordering: .relaxed) else { return }
            var byte: UInt8 = 1
            _ = write(stopWrite, &byte, 1)
            close(stopWrite)
        }
        #else
        return nil
        #endif
    }

    /// The file names of the inotify events in `bytes` (each: wd, mask, cookie, len, then `len`
    /// bytes of NUL-padded name).
    static func names(in bytes: ArraySlice<UInt8>) -> [String] {
        var names: [String] = []
        var offset = bytes.startIndex
        let header = 16
        while offset + header <= bytes.endIndex {
            let length = bytes[(offset + 12)..<(offset + 16)].reversed().reduce(0) { $0 << 8 | Int($1) }
            let start = offset + header
            // The kernel hands out whole records; one cut short is not read past its end.
            guard start + length <= bytes.endIndex else { break }
            if length > 0 {
                let name = bytes[start..<(start + length)].prefix { $0 != 0 }
                names.append(String(decoding: name, as: UTF8.self))
            }
            offset = start + length
        }
        return names
    }
}
