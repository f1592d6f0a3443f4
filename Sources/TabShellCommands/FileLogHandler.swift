import Foundation
import Glibc
import Logging
import TabShell

/// A swift-log handler that appends to a file in the data directory, never to the terminal
/// (curses owns the screen). The file is created 0600 and rotated to `<name>.1` past `maxBytes`.
/// Every line is made printable by ``Sanitizer`` on its way in.
public struct FileLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let sink: Sink

    public init(url: URL, level: Logger.Level, maxBytes: Int = 1 << 20) {
        self.logLevel = level
        self.sink = Sink(url: url, maxBytes: maxBytes)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
        let stamp = ISO8601DateFormatter().string(from: Date())
        // Messages and fields can quote what others typed or sent (a login name, a refused
        // command, a file name): one printable line, so nothing reaches whoever reads the log
        // in a terminal raw, and no line can be forged.
        let line = "\(stamp) \(event.level) [\(ProcessInfo.processInfo.processIdentifier)] \(event.message)\(fields)"
        sink.write(Sanitizer(unicode: true).line(line) + "\n")
    }

    /// Serialises writes; a failing log never disturbs the app.
    public final class Sink: @unchecked Sendable {
        private let url: URL
        private let maxBytes: Int
        private let lock = NSLock()

        public init(url: URL, maxBytes: Int) {
            self.url = url
            self.maxBytes = maxBytes
        }

        public func write(_ line: String) {
            lock.lock()
            defer { lock.unlock() }
            var fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return }
            var info = stat()
            if fstat(fd, &info) == 0, Int(info.st_size) > maxBytes {
                // Rotate in place: the lock is held, so no re-entry; a failed rename just appends.
                close(fd)
                _ = rename(url.path, url.path + ".1")
                fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
                guard fd >= 0 else { return }
            }
            let bytes = Array(line.utf8)
            _ = bytes.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
    }
}
