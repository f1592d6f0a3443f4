import Foundation
import Logging

/// Keeps every log line the server writes, to check what it logged (and never logged).
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    var logger: Logger {
        var logger = Logger(label: "ssh-test") { _ in Handler(capture: self) }
        logger.logLevel = .debug
        return logger
    }

    var all: [String] { lock.withLock { lines } }

    /// Whether some line has this text and all these `key=value` fields.
    func contains(_ text: String, _ fields: String...) -> Bool {
        all.contains { line in line.contains(text) && fields.allSatisfy { line.contains($0) } }
    }

    func waitFor(_ text: String, timeout: Duration = .seconds(5)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !contains(text) {
            if ContinuousClock.now > deadline { throw TimedOut(what: "log line \(text.debugDescription)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    fileprivate func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let fields = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.append("\(event.level) \(event.message) \(fields)")
        }
    }
}
