import CaptureMode
import Domain
import Foundation
import SQLiteStorage
import Storage
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One session of StorageTests' ConcurrencyTests: waits for the starting gun (so every worker
/// opens and migrates at once), then commits captures as fast as it can, journalling each
/// acknowledged id. Exits 0 when done, 2 when its variables are incomplete, 3 when the
/// database cannot be opened.
enum SessionWorker {
    static func run(environment: [String: String]) -> Never {
        typealias Variable = TestWorker.Variable
        guard let path = environment[Variable.sessionDatabase], let journalPath = environment[Variable.sessionJournal],
            let start = environment[Variable.sessionStart], let name = environment[Variable.sessionName],
            let count = environment[Variable.sessionCommits].flatMap(Int.init)
        else {
            print("session worker: missing variables")
            exit(2)
        }
        while access(start, F_OK) != 0 { usleep(200) }
        let journal = open(journalPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        let opened = ContinuousClock.now
        let db: AppDatabase
        do {
            db = try AppDatabase.open(at: URL(fileURLWithPath: path))
        } catch {
            print("session worker \(name): open: \(error.message)")
            exit(3)
        }
        var slowest = Duration.zero
        for index in 0..<count {
            let submission = CaptureSubmission(
                kind: .barcode, barcode: Barcode(value: "400638133393\(index % 10)", symbology: .ean13),
                note: "\(name) #\(index)")
            let started = ContinuousClock.now
            do {
                let id = try db.commitCapture(submission, now: Date())
                slowest = max(slowest, started.duration(to: .now))
                let line = Array("c \(id) \(name) \(index)\n".utf8)
                _ = line.withUnsafeBytes { write(journal, $0.baseAddress, $0.count) }
            } catch {
                print("session worker \(name): commit \(index): \(error.message)")
            }
        }
        let total = opened.duration(to: .now)
        print("session worker \(name): \(count) commits in \(total), slowest ms \(slowest.components.seconds * 1000 + slowest.components.attoseconds / 1_000_000_000_000_000)")
        exit(0)
    }
}
