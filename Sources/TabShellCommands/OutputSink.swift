import Foundation

#if canImport(Glibc)
import Glibc
#endif

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
    private let target: String?
    private let temporaryPath: String?
    private var buffer: [UInt8] = []
    private var finished = false
    private static let bufferSize = 1 << 16

    /// A sink over an already open descriptor (standard output, or a test's pipe); not closed.
    public init(descriptor: Int32) {
        fd = descriptor
        target = nil
        temporaryPath = nil
        buffer.reserveCapacity(Self.bufferSize)
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// A sink that writes `path` atomically, created with mode `mode` (before the umask).
    public init(atomicFileAt path: String, mode: mode_t = 0o644) throws(OutputError) {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/." + url.lastPathComponent + ".tmp-" + String(getpid()) + "-" + UUID().uuidString.prefix(8)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw .failed("Cannot write \(path): \(String(cString: strerror(errno)).lowercased()).")
        }
        fd = descriptor
        target = path
        temporaryPath = temporary
        buffer.reserveCapacity(Self.bufferSize)
        _ = signal(SIGPIPE, SIG_IGN)
    }

    deinit {
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
                throw .failed("Cannot write \(target ?? "the output"): \(String(cString: strerror(code)).lowercased()).")
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
            throw .failed("Cannot write \(target): \(String(cString: strerror(errno)).lowercased()).")
        }
        close(fd)
        finished = true
        guard rename(temporaryPath, target) == 0 else {
            let reason = String(cString: strerror(errno)).lowercased()
            unlink(temporaryPath)
            throw .failed("Cannot write \(target): \(reason).")
        }
        let directory = open(URL(fileURLWithPath: target).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }
}
