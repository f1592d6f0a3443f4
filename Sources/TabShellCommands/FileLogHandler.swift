import Domain
import Foundation
import Logging
import TabShell

/// A swift-log handler that appends to a file in the data directory, never to the terminal
/// (curses owns the screen). The file is created 0600 and rotated to `<name>.1` past `maxBytes`.
/// Every line is made printable by ``Sanitizer`` on its way in.
///
/// A flood cannot erase it: each message is written at most ``LogFloodGate/burst`` times a
/// minute and the rest counted in one line; and security events (authentication, revocation,
/// limits: ``LogFloodGate/isSecurityEvent(_:)``) are written to a second file as well,
/// `<name>-security.log`, which nothing else fills and which rotates on its own.
///
/// `format`: `.text` lines, or `.json`, one object a line (``JSONLogLine``), the flood gate's
/// summaries included.
public struct FileLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let sink: Sink
    private let format: LogFormat

    /// `clock` gives seconds since 1970 (the tests' own, for the flood's windows).
    public init(
        url: URL, level: Logger.Level, format: LogFormat = .text, maxBytes: Int = 1 << 20,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.logLevel = level
        self.format = format
        self.sink = Sink(url: url, maxBytes: maxBytes, format: format, clock: clock)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let message = "\(event.message)"
        sink.log(message: message, level: event.level) { now in
            if format == .json {
                return JSONLogLine.line(time: Date(timeIntervalSince1970: now), level: event.level, message: message, metadata: merged) + "\n"
            }
            let fields = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: " ")
            // Messages and fields can quote what others typed or sent (a login name, a refused
            // command, a file name): one printable line, so nothing reaches whoever reads the log
            // in a terminal raw, and no line can be forged.
            let stamp = Sink.stamp(now)
            return Sanitizer(unicode: true).line("\(stamp) \(event.level) [\(ProcessInfo.processInfo.processIdentifier)] \(message)\(fields)") + "\n"
        }
    }

    /// The security log beside `url`: `tabshell.log` → `tabshell-security.log`.
    public static func securityLog(beside url: URL) -> URL {
        let name = url.deletingPathExtension().lastPathComponent + "-security." + (url.pathExtension.isEmpty ? "log" : url.pathExtension)
        return url.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Serialises writes; a failing log never disturbs the app.
    final class Sink: @unchecked Sendable {
        private let url: URL
        private let securityURL: URL
        private let maxBytes: Int
        private let format: LogFormat
        private let clock: @Sendable () -> Double
        private let lock = NSLock()
        private var gate = LogFloodGate()

        init(url: URL, maxBytes: Int, format: LogFormat, clock: @escaping @Sendable () -> Double) {
            self.url = url
            self.securityURL = FileLogHandler.securityLog(beside: url)
            self.maxBytes = maxBytes
            self.format = format
            self.clock = clock
        }

        deinit {
            for summary in gate.drain() { write(summary) }
        }

        /// Through the flood gate: the line `format` makes from the time (seconds since 1970), or nothing.
        func log(message: String, level: Logger.Level, format: (Double) -> String) {
            lock.lock()
            defer { lock.unlock() }
            let now = clock()
            let isSecurityEvent = LogFloodGate.isSecurityEvent(message)
            let (admitted, summaries) = gate.admit(message, isSecurityEvent: isSecurityEvent, at: now)
            for summary in summaries { write(summary) }
            guard admitted else { return }
            let line = format(now)
            append(line, to: url)
            if isSecurityEvent { append(line, to: securityURL) }
        }

        /// `… "refused: launcher" and 8,801 more like it in the 60 s from 2026-…Z`.
        private func write(_ summary: LogFloodGate.Summary) {
            let line: String
            if format == .json {
                line =
                    JSONLogLine.floodSummary(
                        time: Date(timeIntervalSince1970: clock()), message: summary.message, omitted: summary.omitted,
                        windowSeconds: Int(LogFloodGate.windowSeconds), since: Date(timeIntervalSince1970: summary.since)) + "\n"
            } else {
                let quoted = Sanitizer(unicode: true).line(summary.message)
                line =
                    "\(Self.stamp(clock())) notice [\(ProcessInfo.processInfo.processIdentifier)] \"\(quoted)\" and "
                    + "\(Count.grouped(summary.omitted)) more like it in the \(Int(LogFloodGate.windowSeconds)) s from \(Self.stamp(summary.since))\n"
            }
            append(line, to: url)
            if summary.isSecurityEvent { append(line, to: securityURL) }
        }

        static func stamp(_ seconds: Double) -> String {
            ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds))
        }

        /// Appends to `file`, rotating it to `<file>.1` first when it is past `maxBytes`.
        private func append(_ line: String, to file: URL) {
            var fd = open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return }
            var info = stat()
            if fstat(fd, &info) == 0, Int(info.st_size) > maxBytes {
                // Rotate in place: the lock is held, so no re-entry; a failed rename just appends.
                close(fd)
                _ = rename(file.path, file.path + ".1")
                fd = open(file.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
                guard fd >= 0 else { return }
            }
            let bytes = Array(line.utf8)
            _ = bytes.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
    }
}
