import CaptureMode
import Foundation
import GRDB
import Storage
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The durability protocol under fire: a victim process (`TestWorkers crash-victim`) is
/// SIGKILLed at random points of capture, Done and Close; after each kill, start-up recovery runs
/// and the invariants of docs/durability.md are checked.
///
/// `TABSHELL_CRASH_RUNS` sets the number of kills (200 on SQLite, 100 on PostgreSQL by default);
/// `TABSHELL_CRASH_SEED` replays a run.
@Suite("Crash test", .tags(.stress, .postgres))
struct CrashTests {
    /// PostgreSQL's run: the app's host killed mid-Done (the server stays up; `ServerFaultTests`
    /// kills the server instead). Fewer kills by default: each victim starts a connection pool.
    @Test(.timeLimit(.minutes(5)), arguments: StoreEngine.allCases)
    func survivesRandomKillsDuringCaptureDoneAndClose(engine: StoreEngine) throws {
        let environment = ProcessInfo.processInfo.environment
        let runs = environment["TABSHELL_CRASH_RUNS"].flatMap(Int.init) ?? (engine == .sqlite ? 200 : 100)
        let seed = environment["TABSHELL_CRASH_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1 ... .max)
        var random = TestSupport.SplitMix64(seed: seed)

        // Given a store and source images of several sizes (1.2 MB spans five copy chunks)
        let temp = try TemporaryDirectory()
        let sources = temp.url.appendingPathComponent("sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: false)
        try TestImages.write(TestImages.jpeg(width: 4032, height: 3024, appBytes: 20_000, padding: 1_200_000), named: "big.jpg", in: sources)
        try TestImages.write(TestImages.bmp(width: 640, height: -480, padding: 600_000), named: "scan.bmp", in: sources)
        try TestImages.write(TestImages.png(width: 800, height: 600, padding: 200_000), named: "shot.png", in: sources)
        try TestImages.write(TestImages.gif(width: 64, height: 64, padding: 30_000), named: "icon.gif", in: sources)
        try TestImages.write(TestImages.webpLossy(width: 300, height: 200), named: "small.webp", in: sources)
        let databaseURL = temp.databaseURL
        _ = try temp.store(engine)
        let back = try temp.backDoor(engine)
        // SQLite: the file; PostgreSQL: the data folder, and the database in its own variable.
        let storePath = engine == .sqlite ? databaseURL.path : temp.url.path
        let journal = temp.url.appendingPathComponent("journal").path
        let log = temp.url.appendingPathComponent("victim.log").path

        var totals = CrashTotals()
        let started = Date()
        for run in 0..<runs {
            // When a victim runs for 0–150 ms after it is ready, then is killed
            let ready = temp.url.appendingPathComponent("ready-\(run)").path
            var childEnvironment = environment
            childEnvironment[TestWorker.Variable.crashDatabase] = storePath
            childEnvironment[TestWorker.Variable.crashPostgresDatabase] = temp.scratch?.location.database
            childEnvironment[TestWorker.Variable.crashSeed] = String(random.next())
            childEnvironment[TestWorker.Variable.crashReady] = ready
            childEnvironment[TestWorker.Variable.crashSources] = sources.path
            childEnvironment[TestWorker.Variable.crashJournal] = journal
            let victim = try TestWorker.crashVictim.spawn(environment: childEnvironment, outputPath: log)
            let deadline = Date().addingTimeInterval(30)
            while !exists(ready), victim.poll() == nil, Date() < deadline { usleep(1_000) }
            guard exists(ready) else {
                Issue.record("Victim \(run) never got ready (\(victim.killAndWait())); its log: \(tail(log))")
                return
            }
            usleep(UInt32.random(in: 0...150_000, using: &random))
            let ending = victim.killAndWait()
            guard ending == .signalled(SIGKILL) else {
                Issue.record("Victim \(run) \(ending) before it was killed; its log: \(tail(log))")
                return
            }
            totals.kills += 1

            // Then start-up recovery leaves a consistent store and file tree
            let db = try temp.store(engine)
            let report = try db.recover(graceSeconds: 0, now: Date())
            totals.add(report)
            let check =
                engine == .sqlite
                ? try CrashCheck.run(databaseURL: databaseURL, media: db.media, report: report, journalPath: journal)
                : try CrashCheck.run(postgres: back, media: db.media, report: report, journalPath: journal)
            totals.add(check)
            #expect(check.integrity == ["ok"], "run \(run), seed \(seed)")
            #expect(check.missingFiles == 0, "run \(run), seed \(seed)")
            #expect(check.orphans == 0, "run \(run), seed \(seed)")
            #expect(check.incompleteCaptures == 0, "run \(run), seed \(seed)")
            #expect(check.lostCommits == 0, "run \(run), seed \(seed)")
            #expect(check.unansweredRequests == 0, "run \(run), seed \(seed)")
            #expect(check.staleStaging == 0, "run \(run), seed \(seed)")
            #expect(report.problems.isEmpty, "run \(run), seed \(seed): \(report.problems)")
            if !(check.isClean && report.problems.isEmpty) { break }

            // Half the drafts are discarded here; the rest wait for a victim's own recovery.
            for draft in report.drafts where Bool.random(using: &random) {
                try db.discardDraft(draft)
            }
        }

        let seconds = Date().timeIntervalSince(started)
        let victimErrors = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
            .split(separator: "\n").filter { $0.hasPrefix("crash victim:") }
        print("\(engine): " + totals.line(seconds: seconds, seed: seed) + ", \(victimErrors.count) victim errors")
        #expect(victimErrors.isEmpty, "\(victimErrors.prefix(5))")
        #expect(totals.kills == runs)
        #expect(totals.acknowledgedCommits > 0)
    }

    /// The last lines of the victims' log, for a failure message.
    private func tail(_ path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(15).joined(separator: "\n")
    }
}
