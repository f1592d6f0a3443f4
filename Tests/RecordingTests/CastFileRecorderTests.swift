import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Recording

/// The file half: a new 0600 file, lines in order, the end written, the limits said once.
@Suite struct CastFileRecorderTests {
    final class Stops: Sendable {
        let seen = Mutex<[CastFileRecorder.Stop]>([])
        var all: [CastFileRecorder.Stop] { seen.withLock { $0 } }
        func add(_ stop: CastFileRecorder.Stop) { seen.withLock { $0.append(stop) } }
    }

    @Test func aRecordingIsANewPrivateFileWithEveryEvent() throws {
        let folder = try TemporaryFolder(prefix: "cast-file")
        let path = folder.path("one.cast")
        let ticks = Mutex(0.0)
        let recorder = try CastFileRecorder.create(
            path: path, header: CastHeader(width: 80, height: 24),
            clock: {
                ticks.withLock {
                    $0 += 0.5
                    return $0
                }
            })
        recorder.output(Array("Inbox ".utf8) + [0xE2, 0x94])
        recorder.output([0x80])
        recorder.resized(columns: 90, rows: 28)
        recorder.output([0xE2])
        recorder.finish()
        recorder.finish()
        recorder.output(Array("late".utf8))
        recorder.waitUntilWritten()
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let cast = try CastReader.read(path: path)
        #expect(cast.outputText == "Inbox ─\u{FFFD}")
        #expect(cast.events.contains { $0.kind == .resize(columns: 90, rows: 28) })
        #expect(throws: CastFileRecorder.CreateError(path: path, code: EEXIST)) {
            try CastFileRecorder.create(path: path, header: CastHeader(width: 80, height: 24))
        }
        // Nor through a link planted where the file would be.
        let link = folder.path("link.cast")
        #expect(symlink(folder.path("elsewhere"), link) == 0)
        #expect(throws: CastFileRecorder.CreateError.self) { try CastFileRecorder.create(path: link, header: CastHeader(width: 80, height: 24)) }
        #expect(!FileManager.default.fileExists(atPath: folder.path("elsewhere")))
    }

    @Test func theSessionLimitIsSaidOnceAndTheFileStaysWhole() throws {
        let folder = try TemporaryFolder(prefix: "cast-file")
        let stops = Stops()
        let recorder = try CastFileRecorder.create(
            path: folder.path("capped.cast"), header: CastHeader(width: 80, height: 24), sessionLimit: 300, onStop: stops.add)
        for index in 0..<100 { recorder.output(Array("frame \(index)\r\n".utf8)) }
        recorder.finish()
        recorder.waitUntilWritten()
        #expect(stops.all == [.sessionLimit(300)])
        let size = try FileManager.default.attributesOfItem(atPath: folder.path("capped.cast"))[.size] as? NSNumber
        #expect((size?.intValue ?? 0) <= 300)
        #expect(try CastReader.read(path: folder.path("capped.cast")).outputText.hasPrefix("frame 0\r\n"))
    }

    @Test func theTotalIsSharedAndSaidOnceForAll() throws {
        let folder = try TemporaryFolder(prefix: "cast-file")
        let budget = RecordingBudget(limit: 1000, alreadyUsed: 200)
        let stops = Stops()
        let recorders = try (0..<3).map {
            try CastFileRecorder.create(path: folder.path("\($0).cast"), header: CastHeader(width: 80, height: 24), budget: budget, onStop: stops.add)
        }
        for round in 0..<40 {
            for recorder in recorders { recorder.output(Array("round \(round)\r\n".utf8)) }
        }
        for recorder in recorders {
            recorder.finish()
            recorder.waitUntilWritten()
        }
        #expect(budget.isExhausted && budget.used <= 1000)
        #expect(stops.all.count == 3, "each recording learns it stopped: \(stops.all)")
        #expect(stops.all.filter { $0 == .totalLimit(1000, first: true) }.count == 1, "the log says it once: \(stops.all)")
        let written = try recorders.map { try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber }.map { $0?.intValue ?? 0 }
        #expect(written.reduce(0, +) == budget.used - 200)
        for recorder in recorders { #expect(throws: Never.self) { try CastReader.read(path: recorder.path) } }
    }
}
