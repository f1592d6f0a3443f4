import Foundation
import Presenting
import Synchronization

/// `present` and `watch CODE` under `tabshell serve`: the server's private folder of
/// presentation sockets (0700, made at start, removed at the end) handed to sessions in their
/// environment, the codes of the presentations this server runs and who may watch each, and
/// the limits on watchers: per presentation (the presenting session enforces it) and in total
/// (counted here, as watch sessions start and end).
///
/// The server chooses each presentation's code (``openPresentation(presenter:watchers:)``), so it
/// decides who may watch without asking the presenting session; a watch code that names no
/// presentation and one the person may not watch get the same sentence after the same work.
public final class ServePresenting: Sendable {
    /// Sessions find the folder here (Presenting's `PresentDirectory.environmentKey`).
    public static let directoryKey = PresentDirectory.environmentKey
    /// And the most watchers one presentation takes.
    public static let watcherLimitKey = PresentDirectory.watcherLimitKey
    public static let defaultPerPresentation = 200
    public static let defaultTotal = 1000
    /// The prefix of a server's presentations folder.
    public static let folderPrefix = "tabshell-serve-present-"
    /// The file a running server holds locked (flock) in its folder, so a sweep tells a live
    /// server's folder from one a killed server left.
    public static let lockName = ".server.lock"

    public let directory: String
    public let perPresentation: Int
    public let total: Int

    /// Who may watch one presentation.
    private struct Presentation {
        let presenter: String
        /// nil: anyone holding the code; else these people (and the presenter).
        let watchers: Set<String>?
    }

    private struct State {
        var watching = 0
        var presentations: [WatchCode: Presentation] = [:]
    }

    private let state = Mutex(State())
    private let lock: Mutex<Int32?>

    /// Makes a fresh private folder for this server's presentations in `base` (default
    /// `$XDG_RUNTIME_DIR`, else the temporary folder), holding its lock for the server's life.
    public init(perPresentation: Int = defaultPerPresentation, total: Int = defaultTotal, in base: String? = nil) throws {
        let base = base ?? Self.defaultBase
        let path = (base as NSString).appendingPathComponent(Self.folderPrefix + UUID().uuidString.prefix(8).lowercased())
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let fd = open((path as NSString).appendingPathComponent(Self.lockName), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            if fd >= 0 { close(fd) }
            try? FileManager.default.removeItem(atPath: path)
            throw CocoaError(.fileWriteUnknown)
        }
        directory = path
        lock = Mutex(fd)
        self.perPresentation = perPresentation
        self.total = total
    }

    /// Where servers make their presentations folders.
    public static var defaultBase: String {
        ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSTemporaryDirectory()
    }

    /// Removes what servers that did not stop (SIGKILL, a crash) left in `base`: every
    /// `tabshell-serve-present-…` folder, with its presenters' sockets, whose lock no live server
    /// holds (one without a lock file only once older than a minute: a server may be making it).
    /// Returns how many folders were removed.
    @discardableResult
    public static func sweep(in base: String = defaultBase, now: Date = Date()) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        var removed = 0
        for name in names where name.hasPrefix(folderPrefix) {
            let folder = (base as NSString).appendingPathComponent(name)
            var info = stat()
            // Only a real folder of this user: never a link, never someone else's.
            guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else { continue }
            let fd = open((folder as NSString).appendingPathComponent(lockName), O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            if fd < 0 {
                let made = (try? FileManager.default.attributesOfItem(atPath: folder)[.modificationDate]) as? Date
                guard let made, now.timeIntervalSince(made) > 60 else { continue }
            } else {
                defer { close(fd) }
                guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            }
            if (try? FileManager.default.removeItem(atPath: folder)) != nil { removed += 1 }
        }
        return removed
    }

    /// The folder and its sockets go when the server stops.
    public func remove() {
        try? FileManager.default.removeItem(atPath: directory)
        if let fd = lock.withLock({ $0.take() }) { close(fd) }
    }

    public var environment: [String: String] {
        [Self.directoryKey: directory, Self.watcherLimitKey: String(perPresentation)]
    }

    // MARK: - Presentations

    /// A new presentation by `presenter`: its code, fresh and random, handed to its session in
    /// ``PresentDirectory/codeKey``; `watchers` nil lets anyone holding the code watch, a set
    /// only those people. Kept until ``closePresentation(_:)``.
    public func openPresentation(presenter: String, watchers: Set<String>?) -> WatchCode {
        var generator = SystemRandomNumberGenerator()
        return state.withLock { state in
            var code = WatchCode.random(using: &generator)
            while state.presentations[code] != nil { code = WatchCode.random(using: &generator) }
            state.presentations[code] = Presentation(presenter: presenter, watchers: watchers)
            return code
        }
    }

    public func closePresentation(_ code: WatchCode) {
        _ = state.withLock { $0.presentations.removeValue(forKey: code) }
    }

    /// How many presentations this server runs now.
    public var presentationCount: Int { state.withLock { $0.presentations.count } }

    /// What `watch CODE` gets.
    public enum WatchAdmission: Equatable, Sendable {
        case admitted(WatchCode)
        /// No presentation `person` may watch has this code: it names none, it has ended, or its
        /// presenter named other people. One sentence for all three.
        case noSuchPresentation(String)
        /// The server has as many watchers as it takes.
        case full(String)
    }

    /// Admits `person` to watch the presentation `typed` names, counting one more watcher, or
    /// says why not. Every refused code costs the same work (a lookup and a stat), so neither the
    /// sentence nor the time tells a live code from a dead one.
    public func admitWatcher(code typed: String, person: String) -> WatchAdmission {
        let code = WatchCode(typed)
        let path = (directory as NSString).appendingPathComponent(code?.text ?? "-")
        let socketThere = FileManager.default.fileExists(atPath: path)
        return state.withLock { state in
            guard let code, let presentation = state.presentations[code], socketThere,
                presentation.watchers.map({ $0.contains(person) || presentation.presenter == person }) ?? true
            else {
                return .noSuchPresentation(Self.noSuchPresentation(typed))
            }
            guard state.watching < total else {
                return .full("this server has as many watchers as it takes (\(total)); try again later.")
            }
            state.watching += 1
            return .admitted(code)
        }
    }

    /// The one sentence for a code that lets nobody in.
    static func noSuchPresentation(_ typed: String) -> String {
        let shown = WatchCode(typed)?.text ?? typed
        return "no presentation you may watch has the code \(shown); check the code on the presenter's screen."
    }

    public func watcherLeft() {
        state.withLock { $0.watching = max(0, $0.watching - 1) }
    }

    public var watcherCount: Int { state.withLock { $0.watching } }
}
