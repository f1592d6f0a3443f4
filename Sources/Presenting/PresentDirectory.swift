import Foundation

/// The folder holding one socket per live presentation, named by its code: private to the user
/// the sessions run as (0700, theirs, not a link). `tabshell serve` makes one per server and
/// hands its path to sessions in `TABSHELL_PRESENT_DIR`; locally it is
/// `$XDG_RUNTIME_DIR/tabshell-present`, else `/tmp/tabshell-present-UID`.
public struct PresentDirectory: Sendable {
    public static let environmentKey = "TABSHELL_PRESENT_DIR"
    /// A watcher's limit per presentation, handed by `serve` in the environment.
    public static let watcherLimitKey = "TABSHELL_PRESENT_MAX_WATCHERS"
    /// The code `serve` chose for a presenting session (it keeps who may watch it).
    public static let codeKey = "TABSHELL_PRESENT_CODE"
    /// The name a watcher tells the room, handed by `serve` (the person it let in).
    public static let watcherNameKey = "TABSHELL_WATCHER_NAME"

    public let path: String

    public init(path: String) {
        self.path = path
    }

    public static func forEnvironment(_ environment: [String: String]) -> PresentDirectory {
        if let given = environment[environmentKey], given.hasPrefix("/") { return PresentDirectory(path: given) }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return PresentDirectory(path: runtime + "/tabshell-present")
        }
        return PresentDirectory(path: "/tmp/tabshell-present-\(getuid())")
    }

    /// Makes the folder if it is missing and checks it is private; a sentence when it is not.
    public func prepare() throws(PresentError) {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw PresentError("The presentations folder \(path) cannot be made: \(String(cString: strerror(errno))).")
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw PresentError("The presentations folder \(path) cannot be read: \(String(cString: strerror(errno))).")
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw PresentError("The presentations folder \(path) is not a private folder of this user (0700); nothing is shared through it.")
        }
    }

    public func socketPath(for code: WatchCode) -> String {
        path + "/" + code.text
    }
}

/// Why presenting or watching cannot go on: one sentence for the person.
public struct PresentError: Error, Equatable, Sendable {
    public let sentence: String
    public init(_ sentence: String) { self.sentence = sentence }
}

/// The few socket calls both sides make.
enum UnixSocket {
    static func address(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// A connected socket to `path`, or nil (nothing listens there).
    static func connect(to path: String) -> Int32? {
        guard var address = address(path) else { return nil }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Makes `fd` non-blocking (and closed in children): the room's writes never wait on a peer.
    static func makeNonBlocking(_ fd: Int32, closeOnExec: Bool) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        if closeOnExec { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    /// Writes all of `data` (blocking this thread only); false when the peer is gone.
    static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let written = send(fd, base + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }
}
