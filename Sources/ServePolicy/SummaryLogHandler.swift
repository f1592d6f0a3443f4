import Domain
import Foundation
import Logging
import SSHServer

/// `tabshell serve`'s running commentary on a terminal's standard error: one line per event,
/// `HH:MM:SS who what`, e.g. `14:03:07 ana@127.0.0.1:53122 session started`. The full record,
/// every field, goes to the log file; this is for the person watching the server.
public struct SummaryLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let sink = Sink()

    public init() {}

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        guard Self.shows(event) else { return }
        sink.write(Self.line(event: event, metadata: metadata.merging(event.metadata ?? [:]) { $1 }, now: Date()))
    }

    /// Info and above, except what the start report printed already (the address, each refused
    /// authorized_keys line): nobody reads those twice.
    public static func shows(_ event: LogEvent) -> Bool {
        event.level >= .info && event.metadata?[SSHServerStartReport.metadataKey] == nil
    }

    /// The summary line of one event (without a newline): time, who, what, and the one or two
    /// fields that say most about it.
    public static func line(event: LogEvent, metadata: Logger.Metadata, now: Date) -> String {
        func field(_ key: String) -> String? { metadata[key].map { "\($0)" } }
        var who = field("address") ?? ""
        if let person = field("person") { who = person + (who.isEmpty ? "" : "@" + who) }
        var extra: [String] = []
        for key in ["reason", "command", "end", "fingerprint", "sessions", "error"] {
            if let value = field(key), !value.isEmpty, value != "nil" { extra.append(value) }
        }
        var time = time_t(now.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&time, &parts)
        let stamp = String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
        let sanitizer = Sanitizer(unicode: true)
        let text = [stamp, who, "\(event.message)", extra.isEmpty ? "" : "(" + extra.joined(separator: ", ") + ")"]
            .filter { !$0.isEmpty }
            .joined(separator: " ")
        return sanitizer.line(text)
    }

    /// Serialises the writes of all threads.
    final class Sink: @unchecked Sendable {
        private let lock = NSLock()

        func write(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            lock.withLock { _ = bytes.withUnsafeBufferPointer { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) } }
        }
    }
}
