import Foundation
import TestSupport
import Testing

@testable import Recording

/// What recording costs, printed (not asserted): bytes of terminal output per second through
/// the encoder and through a file recorder, and the replay filter's speed. A benchmark, not a
/// test: `make bench` runs it (TABSHELL_MICRO_BENCH=1); `make test` does not.
@Suite(.tags(.stress), .enabled(if: Benchmarks.enabled, Benchmarks.reason)) struct RecordingBenchmarkTests {
    /// A frame like the app's: cursor moves, colours, box drawing and text.
    static let frame = Array(
        String(repeating: "\u{1B}[5;10H\u{1B}[0;1m\u{0F}\u{1B}[36mInbox ─┼─ café ✓ Scan the shelf label in aisle 4\u{1B}[0m\r\n", count: 40).utf8)

    static func seconds(_ work: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try work()
        let (whole, fraction) = (ContinuousClock.now - start).components
        return Double(whole) + Double(fraction) / 1e18
    }

    @Test func recordingThroughput() throws {
        let rounds = 2000
        let total = Double(Self.frame.count * rounds) / 1_048_576
        var encoder = CastEncoder(header: CastHeader(width: 80, height: 24), sizeLimit: .max)
        var lines = 0
        let encoding = Self.seconds {
            for round in 0..<rounds { lines += encoder.output(Self.frame[...], at: Double(round) / 100).count }
        }
        let folder = try TemporaryFolder(prefix: "cast-bench")
        let recorder = try CastFileRecorder.create(path: folder.path("bench.cast"), header: CastHeader(width: 80, height: 24), sessionLimit: .max)
        let recording = Self.seconds {
            for _ in 0..<rounds { recorder.output(Self.frame) }
            recorder.finish()
            recorder.waitUntilWritten()
        }
        let text = String(decoding: Self.frame, as: UTF8.self)
        var filter = ReplayFilter()
        var kept = 0
        let filtering = Self.seconds {
            for _ in 0..<rounds { kept += filter.filter(text).utf8.count }
        }
        print(
            String(
                format: "recording: %.1f MiB of output in %d writes; encoder %.0f MiB/s, file recorder %.0f MiB/s, replay filter %.0f MiB/s",
                total, rounds, total / encoding, total / recording, total / filtering))
        #expect(lines == rounds && kept > 0)
    }
}
