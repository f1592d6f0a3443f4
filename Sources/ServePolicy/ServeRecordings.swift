import Foundation
import Logging
import Recording
import SSHServer
import Synchronization

/// `tabshell serve --record DIR`: each recorded session becomes an asciicast v2 file in DIR,
/// named by the server (UTC time, session number, the person's name reduced to [A-Za-z0-9._-]),
/// created 0600 in a folder made 0700. Bounded per session and in total (the casts already in
/// DIR count); when a limit is reached the cast stops growing and the log says so once.
///
/// What is recorded: in demo mode every terminal session; in team mode only a session its
/// person started with `present` — never anyone else's. Sessions without a terminal never.
public final class ServeRecordings: Sendable {
    /// Why `--record DIR` cannot be used: one sentence.
    public struct FolderError: Error, Equatable, Sendable {
        public let sentence: String
    }

    public let folder: URL
    public let sessionLimit: Int
    public let budget: RecordingBudget
    /// What one visitor's recordings may hold together, within ``budget`` (`--record-visitor-limit`):
    /// one visitor spending everyone's budget stops only its own recordings.
    public let visitorLimit: Int
    private let visitorBudgets = Mutex<[String: RecordingBudget]>([:])
    private let logger: Logger
    private let sessions = Atomic<Int>(0)

    /// Makes DIR (0700) when it is missing; refuses something that is not a folder.
    public init(folder path: String, sessionLimit: Int, totalLimit: Int, visitorLimit: Int? = nil, logger: Logger) throws(FolderError) {
        let folder = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw FolderError(sentence: "--record needs a folder, and \(path) is not one.")
            }
        } else {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw FolderError(sentence: "--record's folder \(path) cannot be made (\((error as NSError).localizedDescription)).")
            }
        }
        guard access(folder.path, W_OK | X_OK) == 0 else {
            throw FolderError(sentence: "--record's folder \(path) cannot be written to.")
        }
        self.folder = folder
        self.sessionLimit = sessionLimit
        self.budget = RecordingBudget(limit: totalLimit, alreadyUsed: Self.castBytes(in: folder))
        // `--record-visitor-limit`'s default: an eighth of the total, as a visitor's share of sessions.
        self.visitorLimit = visitorLimit ?? max(1, totalLimit / 8)
        self.logger = logger
    }

    /// Whether a session is recorded: a terminal session, in demo mode any, in team mode one
    /// started with `present` (the person shows it to a room).
    public static func records(_ request: SSHSessionRequest, demo: Bool) -> Bool {
        guard request.pseudoTerminal != nil else { return false }
        return demo || request.commandWords?.first == "present"
    }

    /// The budget of `visitor` (an address in demo mode, a person in team mode), made on first use.
    func budget(of visitor: String) -> RecordingBudget {
        visitorBudgets.withLock { budgets in
            if let budget = budgets[visitor] { return budget }
            let made = RecordingBudget(limit: visitorLimit, within: budget)
            budgets[visitor] = made
            return made
        }
    }

    /// A tap recording the session into a new file; nil (and a log line) when none can be made.
    /// Its bytes count against `visitor`'s share and the total.
    public func tap(for request: SSHSessionRequest, person: String, visitor: String? = nil, now: Date = Date()) -> (any SSHSessionTap)? {
        guard let terminal = request.pseudoTerminal else { return nil }
        let budget = self.budget(of: visitor ?? person)
        if budget.isExhausted || self.budget.isExhausted { return nil }
        let number = sessions.add(1, ordering: .relaxed).newValue
        var header = CastHeader(
            width: terminal.columns, height: terminal.rows, timestamp: Int(now.timeIntervalSince1970))
        if !terminal.term.isEmpty { header.environment["TERM"] = terminal.term }
        let logger = self.logger
        let sessionLimit = self.sessionLimit
        let totalLimit = self.budget.limit
        for attempt in 1...9 {
            let name = Self.fileName(person: person, session: number, at: now, attempt: attempt)
            let path = folder.appendingPathComponent(name).path
            do throws(CastFileRecorder.CreateError) {
                let recorder = try CastFileRecorder.create(
                    path: path, header: header, sessionLimit: sessionLimit, budget: budget, forAnyPlayer: true,
                    onStop: { stop in
                        switch stop {
                        case .sessionLimit(let limit):
                            logger.notice(
                                "recording stopped: the session reached its size limit", metadata: ["file": "\(name)", "limit": "\(MemorySize.text(UInt64(limit)))"])
                        case .totalLimit(let limit, first: true) where limit != totalLimit:
                            logger.notice(
                                "recording stopped: the visitor's share of --record's total is spent; its other sessions are not recorded further",
                                metadata: ["file": "\(name)", "limit": "\(MemorySize.text(UInt64(limit)))"])
                        case .totalLimit(let limit, first: true):
                            logger.notice(
                                "recordings stopped: --record's total size limit is reached; no session is recorded further",
                                metadata: ["limit": "\(MemorySize.text(UInt64(limit)))"])
                        case .totalLimit:
                            break
                        case .writeFailed(let reason):
                            logger.error("recording stopped: the file cannot be written", metadata: ["file": "\(name)", "error": "\(reason)"])
                        }
                    })
                logger.info("recording the session", metadata: ["file": "\(name)"])
                return RecordingTap(recorder: recorder, name: name, logger: logger)
            } catch {
                if error.code == EEXIST { continue }
                logger.error("cannot make the recording", metadata: ["file": "\(name)", "error": "\(error.reason)"])
                return nil
            }
        }
        return nil
    }

    /// `20261126T215012Z-s0003-ana.cast`: nothing in it is the client's but the name, reduced
    /// to letters, digits, `.`, `_` and `-` (at most 32), never starting with a dot.
    static func fileName(person: String, session: Int, at date: Date, attempt: Int = 1) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let fields: [CVarArg] = [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second].map { $0 ?? 0 }
        let stamp = String(format: "%04d%02d%02dT%02d%02d%02dZ", arguments: fields)
        var name = String(
            person.unicodeScalars.prefix(32).map { scalar -> Character in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar)) ? Character(scalar) : "_"
            })
        while name.hasPrefix(".") { name = "_" + name.dropFirst() }
        if name.isEmpty { name = "visitor" }
        let suffix = attempt > 1 ? "-\(attempt)" : ""
        return "\(stamp)-s\(String(format: "%04d", session))-\(name)\(suffix).cast"
    }

    /// What the `*.cast` files already in `folder` hold.
    static func castBytes(in folder: URL) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".cast") }.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }
}

/// The server's tap onto a recorder.
struct RecordingTap: SSHSessionTap {
    let recorder: CastFileRecorder
    /// The file's name in the folder, and the log that says when it is complete.
    let name: String
    let logger: Logger

    func childWrote(_ bytes: UnsafeRawBufferPointer) { recorder.output(bytes) }
    func terminalResized(columns: Int, rows: Int) { recorder.resized(columns: columns, rows: rows) }

    /// Finishes the file and, once its queue has written it (off the session's event loop),
    /// logs `recording written` with its size.
    func sessionEnded() {
        recorder.finish()
        let (recorder, name, logger) = (self.recorder, self.name, self.logger)
        DispatchQueue.global().async {
            recorder.waitUntilWritten()
            let size = (try? FileManager.default.attributesOfItem(atPath: recorder.path)[.size] as? NSNumber)?.intValue ?? 0
            logger.info("recording written", metadata: ["file": "\(name)", "bytes": "\(size)"])
        }
    }
}
