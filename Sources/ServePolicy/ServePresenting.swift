import Foundation
import Synchronization

/// `present` and `watch CODE` under `tabshell serve` (issue #27): the server's private folder of
/// presentation sockets (0700, made at start, removed at the end) handed to sessions in their
/// environment, and the limits on watchers: per presentation (the presenting session enforces
/// it) and in total (counted here, as watch sessions start and end).
public final class ServePresenting: Sendable {
    /// Sessions find the folder here (Presenting's `PresentDirectory.environmentKey`).
    public static let directoryKey = "TABSHELL_PRESENT_DIR"
    /// And the most watchers one presentation takes.
    public static let watcherLimitKey = "TABSHELL_PRESENT_MAX_WATCHERS"
    public static let defaultPerPresentation = 200
    public static let defaultTotal = 1000

    public let directory: String
    public let perPresentation: Int
    public let total: Int
    private let watching = Mutex(0)

    /// Makes a fresh private folder for this server's presentations.
    public init(perPresentation: Int = defaultPerPresentation, total: Int = defaultTotal) throws {
        let base = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSTemporaryDirectory()
        let path = (base as NSString).appendingPathComponent("tabshell-serve-present-\(UUID().uuidString.prefix(8).lowercased())")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        directory = path
        self.perPresentation = perPresentation
        self.total = total
    }

    /// The folder and its sockets go when the server stops.
    public func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    public var environment: [String: String] {
        [Self.directoryKey: directory, Self.watcherLimitKey: String(perPresentation)]
    }

    /// A presentation with this code is live (its socket is there).
    public func isLive(code: String) -> Bool {
        AllowedCommand.isWatchCode(code) && FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent(code))
    }

    /// Counts one more watcher, or false when the server has as many as it takes.
    public func admitWatcher() -> Bool {
        watching.withLock { count in
            guard count < total else { return false }
            count += 1
            return true
        }
    }

    public func watcherLeft() {
        watching.withLock { $0 = max(0, $0 - 1) }
    }

    public var watcherCount: Int { watching.withLock { $0 } }
}
