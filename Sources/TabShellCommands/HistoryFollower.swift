import Foundation
import Logging
import Storage
import TerminalScreen

/// `tabshell history export --follow`: every record committed from now on, by any session or
/// process, as a JSON line, until SIGINT, SIGTERM or SIGHUP (exit 0) or until the reader goes
/// away (a closed pipe, also exit 0: a consumer that stops reading has simply stopped).
///
/// Records are read by id: ids grow in commit order (SQLite has one writer at a time, and an id
/// is taken inside the transaction that commits it; PostgreSQL's Done takes the record count's
/// lock before the id), so "after the last id printed" never skips a record and never repeats
/// one. Other processes' commits are noticed through the store's change counter, read every
/// `interval`: SQLite's `PRAGMA data_version`, PostgreSQL's LISTEN (a local counter; nothing is
/// read while nothing changed). A server that goes away — before a read or in the middle of
/// one — is waited for and said in the log; the follower reads on after the last record it
/// printed.
struct HistoryFollower {
    let database: any RecordStore
    let output: any TextOutput
    let logger: Logger
    var interval: Duration = .milliseconds(100)

    /// Prints the records after `since` (after the newest one when nil), then follows.
    func run(after since: Int64?) throws {
        let stop = try StopSignals()
        var last: Int64 = since ?? 0
        if since == nil { last = try database.lastRecordID() ?? 0 }
        logger.info("history export --follow started", metadata: ["after": "\(last)"])
        var printed = 0
        do {
            while !stop.isRequested {
                // The counter is read before the records: a commit after this read changes it,
                // so the next turn reads again and nothing falls between the two.
                let counter: Int64
                do {
                    counter = try database.externalChangeCounter()
                    try database.exportHistory(ids: last + 1...Int64.max, start: { _ in }) { record in
                        try output.write(ExportFormat.jsonl.record(record, index: printed))
                        last = record.id
                        printed += 1
                    }
                } catch let StorageError.unreachable(sentence) {
                    // The server went away, before the counter, before the read or during it:
                    // wait for it (the store listens again by itself), then read on after the
                    // last record printed.
                    try output.finish()
                    logger.warning("history export --follow: \(sentence)")
                    stop.wait(for: .seconds(1))
                    continue
                }
                try output.finish()
                while !stop.isRequested, (try? database.externalChangeCounter()) == counter {
                    stop.wait(for: interval)
                }
            }
        } catch OutputSink.OutputError.closedByReader {
            logger.info("history export --follow ended: the reader went away", metadata: ["records": "\(printed)"])
            return
        } catch let error as OutputSink.OutputError {
            throw Failure(error.sentence)
        }
        logger.info("history export --follow stopped", metadata: ["records": "\(printed)", "last": "\(last)"])
    }
}

/// SIGINT, SIGTERM and SIGHUP, turned into "stop" for a loop that sleeps between checks: the
/// terminal's `SignalWatcher`, whose self-pipe a sleep waits on, so a signal cuts it short.
final class StopSignals {
    private let watcher: SignalWatcher
    private var requested = false

    init() throws(TerminalError) {
        watcher = try SignalWatcher(signals: [SIGINT, SIGTERM, SIGHUP])
    }

    var isRequested: Bool {
        if !requested { requested = !watcher.takePending().isEmpty }
        return requested
    }

    /// Sleeps for `duration`, or less when a stop is asked for.
    func wait(for duration: Duration) {
        var pipe = pollfd(fd: watcher.wakeDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&pipe, 1, Int32(clamping: Int(duration / .milliseconds(1))))
    }
}
