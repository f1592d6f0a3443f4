import Foundation

/// Where a command's output goes: standard output, or a file written atomically (a temporary
/// file beside it, renamed over it only once everything is written and synced, removed on any
/// failure, so a reader never sees half an export).
///
/// Writes are buffered and go straight to the descriptor with `write(2)`. SIGPIPE is ignored
/// while a sink is open, so a reader that goes away (`| head`) turns into
/// ``OutputError/closedByReader`` instead of a crash.
public final class OutputSink {
    public enum OutputError: Error, Equatable {
        /// The reading end of the pipe was closed (EPIPE): stop quietly.
        case closedByReader
        /// Any other failure, as a sentence.
        case failed(String)

        public var sentence: String {
            switch self {
            case .closedByReader: "The reader closed the pipe."
            case let .failed(sentence): sentence
            }
        }
    }

    private let fd: Int32
    /// What sentences call the output: the file's path, or nil for "the output".
    private let name: String?
    /// The file renamed into place by ``finish()``, and the temporary file written until then.
    private let target: String?
    private let temporaryPath: String?
    /// Whether the sink opened `fd` as it is and closes it when it goes (a device or a pipe).
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private var finished = false
    private static let bufferSize = 1 << 16

    /// A sink over an already open descriptor (standard output, or a test's pipe); not closed.
    public init(descriptor: Int32) {
        fd = descriptor
        (name, target, temporaryPath, ownsDescriptor) = (nil, nil, nil, false)
        buffer.reserveCapacity(Self.bufferSize)
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// A sink that writes `path` atomically, created with mode `mode` (before the umask).
    ///
    /// A symbolic link is followed: the file it names is replaced, the link stays. A path that
    /// names something other than a file (`/dev/stdout`, a terminal, a named pipe) is written to
    /// as it is, as a shell's `>` would, and never replaced.
    public init(atomicFileAt path: String, mode: mode_t = 0o644) throws(OutputError) {
        var info = stat()
        let exists = stat(path, &info) == 0
        let descriptor: Int32
        if exists, (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR {
            // Opened through `path` itself: the kernel follows /dev/stdout's /proc link to a pipe.
            descriptor = open(path, O_WRONLY | O_CLOEXEC)
            (target, temporaryPath, ownsDescriptor) = (nil, nil, true)
        } else {
            // The file a link names is replaced, not the link: the kernel's answer when the file
            // is there (`/dev/stdout` redirected to a file names it), else where the links lead.
            let resolved = exists ? Self.realPath(path) ?? path : Self.followingLinks(path)
            let url = URL(fileURLWithPath: resolved)
            let temporary =
                url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".tmp-" + String(getpid()) + "-"
                + UUID().uuidString.prefix(8)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            (target, temporaryPath, ownsDescriptor) = (resolved, temporary, false)
        }
        guard descriptor >= 0 else {
            throw .failed("Cannot write \(path): \(String(cString: strerror(errno)).lowercased()).")
        }
        fd = descriptor
        name = path
        buffer.reserveCapacity(Self.bufferSize)
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// The path a chain of symbolic links at `path` ends on where it names nothing yet (where a
    /// shell's `>` would create the file); `path` itself when it is no link.
    static func followingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {  // Linux's own limit on links followed
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
                let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
            else { return current }
            current = destination.hasPrefix("/") ? destination : (current as NSString).deletingLastPathComponent + "/" + destination
        }
        return current
    }

    /// `realpath(3)` of an existing path, or nil.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    deinit {
        if ownsDescriptor { close(fd) }
        // Never finished: drop the partial file.
        if !finished, let temporaryPath {
            close(fd)
            unlink(temporaryPath)
        }
    }

    public func write(_ text: String) throws(OutputError) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    public func flush() throws(OutputError) {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { bytes in
                Glibc.write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                buffer.removeAll(keepingCapacity: true)
                if code == EPIPE { throw .closedByReader }
                throw .failed("Cannot write \(name ?? "the output"): \(String(cString: strerror(code)).lowercased()).")
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is buffered and, for a file, syncs it and renames it into place.
    public func finish() throws(OutputError) {
        try flush()
        guard let target, let temporaryPath else { return }
        guard fsync(fd) == 0 else {
            throw .failed("Cannot write \(name ?? target): \(String(cString: strerror(errno)).lowercased()).")
        }
        close(fd)
        finished = true
        guard rename(temporaryPath, target) == 0 else {
            let reason = String(cString: strerror(errno)).lowercased()
            unlink(temporaryPath)
            throw .failed("Cannot write \(name ?? target): \(reason).")
        }
        let directory = open(URL(fileURLWithPath: target).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }
}
