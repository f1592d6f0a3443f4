import CaptureMode
import Domain
import Foundation
import PostgresStorage
import SQLiteStorage
import Storage
import TabShell
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process the crash test kills: `TestWorkers crash-victim` with TestWorker.Variable's
/// `crash…` variables set. It captures, commits, closes, abandons, recovers, resumes
/// and deletes at random, forever, until SIGKILL arrives.
///
/// After every acknowledged write it appends a line to the journal (one `write` to an
/// O_APPEND file, which a kill cannot tear): `c <id>` after a commit returned, `d? <id>` /
/// `d <id>` around a delete, `x?` / `x` around a clear all. The parent checks the database against it.
enum CrashVictim {
    static let codes = [
        Barcode(value: "4006381333931", symbology: .ean13),
        Barcode(value: "96385074", symbology: .ean8),
        Barcode(value: "036000291452", symbology: .upcA),
    ]

    /// Runs until killed; exits with status 2 when the variables are incomplete and 3 when the
    /// database cannot be opened.
    static func run(environment: [String: String]) -> Never {
        typealias Variable = TestWorker.Variable
        guard let databasePath = environment[Variable.crashDatabase], let ready = environment[Variable.crashReady],
            let sources = environment[Variable.crashSources], let journalPath = environment[Variable.crashJournal],
            let seed = environment[Variable.crashSeed].flatMap(UInt64.init)
        else {
            say("crash victim: missing variables")
            exit(2)
        }
        let db: any RecordStore
        do {
            db = try open(databasePath, postgres: environment[Variable.crashPostgresDatabase], environment: environment)
        } catch {
            say("crash victim: \(error)")
            exit(3)
        }
        let images = ((try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []).sorted().map { sources + "/" + $0 }
        let journal = open(journalPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        var victim = Victim(db: db, images: images, journal: journal, random: TestSupport.SplitMix64(seed: seed))
        _ = FileManager.default.createFile(atPath: ready, contents: Data())
        while true {
            do {
                try victim.step()
            } catch {
                say("crash victim: \(error)")
            }
        }
    }
}

/// The SQLite file at `path`, or (with `postgres`) that database of the test server with
/// `path` as this host's data folder.
private func open(_ path: String, postgres: String?, environment: [String: String]) throws -> any RecordStore {
    guard let postgres else { return try AppDatabase.open(at: URL(fileURLWithPath: path)) }
    var location = try PostgresLocation(url: environment["TABSHELL_TEST_DATABASE_URL"] ?? "", environment: [:])
    location.database = postgres
    return try PostgresStore.open(location, folder: URL(fileURLWithPath: path), listen: false)
}

/// Writes a line to standard error at once (a kill would lose buffered output).
private func say(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// One victim's state: its database, its sources and its random numbers.
private struct Victim {
    let db: any RecordStore
    let images: [String]
    let journal: Int32
    var random: TestSupport.SplitMix64

    mutating func step() throws {
        switch Int.random(in: 0..<200, using: &random) {
        case 0..<12: try recoverAndHandleDrafts()
        case 12..<20: try deleteOne()
        case 20: try clearAll()
        default: try capture()
        }
    }

    /// What the app does at start: recover, then resume (and finish) or discard each draft.
    mutating func recoverAndHandleDrafts() throws {
        let report = try db.recover(graceSeconds: 0, now: Date())
        for draft in report.drafts {
            if Bool.random(using: &random) {
                let session = try db.resumeDraft(draft)
                pause()
                if Bool.random(using: &random) {
                    try commit(session)
                } else {
                    session.discard()
                }
            } else {
                try db.discardDraft(draft)
            }
        }
    }

    mutating func capture() throws {
        let session = try db.beginStaging()
        var requestID: Int64?
        if Int.random(in: 0..<4, using: &random) == 0 {
            requestID = try db.addRequest(title: "Crash request", body: "", kind: .product, now: Date(), createdBy: nil, requester: nil)
        }
        let code = CrashVictim.codes[Int.random(in: 0..<CrashVictim.codes.count, using: &random)]
        var draft = CaptureDraft(kind: .product, phase: "barcode", barcode: code, requestID: requestID, updatedAt: Date())
        try session.saveDraft(draft)
        pause()
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let image = images[Int.random(in: 0..<images.count, using: &random)]
            _ = try session.stage(fileAt: image, originalName: (image as NSString).lastPathComponent, maxBytes: 50_000_000)
            pause()
        }
        if session.photos.count > 1, Int.random(in: 0..<6, using: &random) == 0 {
            try session.remove(session.photos[0])
        }
        draft.phase = "review"
        draft.updatedAt = Date()
        try session.saveDraft(draft)
        pause()
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<65: try commit(session)
        case 65..<90: session.discard()  // Close
        default: session.close()  // A dropped link: the folder stays for recovery.
        }
    }

    /// Done. The note says how many photos the record must have.
    mutating func commit(_ session: StagingSession) throws {
        let draft = session.draft
        let submission = CaptureSubmission(
            kind: .product, barcode: draft?.barcode, note: "photos=\(session.photos.count)",
            requestID: draft?.requestID, photos: session.photos)
        let id = try db.commitCapture(submission, staging: session, now: Date(), capturedBy: nil)
        log("c \(id)")
    }

    mutating func deleteOne() throws {
        let count = try db.historyPage(HistoryPageRequest(start: 0, count: 0)).totalCount
        guard count > 0 else { return }
        let start = Int.random(in: 0..<count, using: &random)
        guard let row = try db.historyPage(HistoryPageRequest(start: start, count: 1)).rows.first else { return }
        log("d? \(row.id)")
        try db.deleteRecord(id: row.id)
        log("d \(row.id)")
    }

    mutating func clearAll() throws {
        guard Int.random(in: 0..<4, using: &random) == 0 else { return }
        log("x?")
        _ = try db.deleteAllRecords()
        log("x")
    }

    /// A tiny random pause (0 to 2 ms), so kills land everywhere.
    mutating func pause() {
        usleep(UInt32.random(in: 0...2_000, using: &random))
    }

    func log(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(journal, $0.baseAddress, $0.count) }
    }
}
