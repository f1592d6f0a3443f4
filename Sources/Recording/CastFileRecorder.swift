import Foundation
import Synchronization

/// Records one terminal session into a new asciicast v2 file: output and resizes in, lines
/// written in order on a queue of its own (a slow disk never holds up whoever calls), the file
/// closed by ``finish()``. Bounded by its own size limit and a shared ``RecordingBudget``;
/// when either is reached the cast stops growing and `onStop` is told once.
public final class CastFileRecorder: Sendable {
    /// Why a recording stopped growing before its end.
    public enum Stop: Sendable, Equatable {
        case sessionLimit(Int)
        /// The shared total was reached; `first` for the one recording that found it so.
        case totalLimit(Int, first: Bool)
        case writeFailed(String)
    }

    /// Why a recording's file could not be made.
    public struct CreateError: Error, Sendable, Equatable {
        public let path: String
        /// errno from open(2): EEXIST when something is there already.
        public let code: Int32

        public var reason: String { String(cString: strerror(code)) }
    }

    public let path: String
    private let descriptor: Int32
    private let queue: DispatchQueue
    private let budget: RecordingBudget?
    private let onStop: @Sendable (Stop) -> Void
    private let clock: @Sendable () -> Double
    private let state: Mutex<State>

    private struct State {
        var encoder: CastEncoder
        var finished = false
        var stopped = false
    }

    /// Creates `path` (0600; never an existing file or a link) and writes the header.
    /// `clock` gives seconds since the recording began (a monotonic clock by default).
    public static func create(
        path: String, header: CastHeader, sessionLimit: Int = CastEncoder.defaultSessionLimit, budget: RecordingBudget? = nil,
        forAnyPlayer: Bool = false, clock: (@Sendable () -> Double)? = nil, onStop: @escaping @Sendable (Stop) -> Void = { _ in }
    ) throws(CreateError) -> CastFileRecorder {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CreateError(path: path, code: errno) }
        let started = ContinuousClock.now
        let recorder = CastFileRecorder(
            path: path, descriptor: descriptor, header: header, sessionLimit: sessionLimit, budget: budget,
            clock: clock ?? { (ContinuousClock.now - started) / .seconds(1) }, onStop: onStop)
        // `forAnyPlayer`: filtered as it is recorded, and ended cleanly when cut (CastEncoder.filter).
        if forAnyPlayer { recorder.state.withLock { $0.encoder.filter = ReplayFilter() } }
        recorder.begin()
        return recorder
    }

    private init(
        path: String, descriptor: Int32, header: CastHeader, sessionLimit: Int, budget: RecordingBudget?,
        clock: @escaping @Sendable () -> Double, onStop: @escaping @Sendable (Stop) -> Void
    ) {
        self.path = path
        self.descriptor = descriptor
        self.budget = budget
        self.clock = clock
        self.onStop = onStop
        self.queue = DispatchQueue(label: "tabshell.recording")
        self.state = Mutex(State(encoder: CastEncoder(header: header, sizeLimit: sessionLimit)))
    }

    private func begin() {
        record { encoder, _ in encoder.begin().map { [$0] } ?? [] }
    }

    /// What the program wrote, as read (a UTF-8 sequence may be cut at either end).
    public func output(_ bytes: some Collection<UInt8>) {
        record { encoder, time in encoder.output(bytes, at: time) }
    }

    /// The terminal's new size (recorded only when it differs from the last).
    public func resized(columns: Int, rows: Int) {
        record { encoder, time in encoder.resize(columns: columns, rows: rows, at: time) }
    }

    /// Writes what is left and closes the file; later calls do nothing. Returns at once: the
    /// file is complete once the queue has written it (``waitUntilWritten()``).
    public func finish() {
        let lines: [String]? = state.withLock { state in
            guard !state.finished else { return nil }
            state.finished = true
            // The carried bytes of a cut sequence, as U+FFFD (finished is set, so record is skipped).
            return state.stopped ? [] : state.encoder.end(at: clock())
        }
        guard let lines else { return }
        write(lines)
        let descriptor = self.descriptor
        queue.async { _ = close(descriptor) }
    }

    /// Blocks until every line handed in so far has been written (and, after ``finish()``,
    /// the file closed).
    public func waitUntilWritten() {
        queue.sync {}
    }

    // MARK: - Helpers

    private func record(_ encode: (inout CastEncoder, Double) -> [String]) {
        var stop: Stop?
        let lines: [String] = state.withLock { state in
            guard !state.finished, !state.stopped else { return [] }
            let lines = encode(&state.encoder, clock())
            if state.encoder.reachedLimit {
                state.stopped = true
                stop = .sessionLimit(state.encoder.sizeLimit)
            }
            return lines
        }
        write(lines)
        if let stop { onStop(stop) }
    }

    private func write(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        var bytes: [UInt8] = []
        for line in lines { bytes.append(contentsOf: line.utf8) }
        if let budget {
            let (taken, first) = budget.take(bytes.count)
            guard taken else {
                if !markStopped() {
                    // Cut here: the lines written end between sequences (the filter holds an
                    // unfinished one back); the closing event puts the player's modes back.
                    if state.withLock({ $0.encoder.closesCleanly }) { enqueue(Array(CastEvent(time: clock(), kind: .output(CastEncoder.cutText)).line.utf8)) }
                    // The budget whose limit was reached: the recording's own share, or the total it is within.
                    let spent = budget.parent.flatMap { $0.isExhausted ? $0.limit : nil } ?? budget.limit
                    onStop(.totalLimit(spent, first: first))
                }
                return
            }
        }
        enqueue(bytes)
    }

    /// Marks the recording stopped; whether it already was.
    private func markStopped() -> Bool {
        state.withLock { state in
            defer { state.stopped = true }
            return state.stopped
        }
    }

    /// Writes `bytes` on the queue, taken from no budget.
    private func enqueue(_ bytes: [UInt8]) {
        let descriptor = self.descriptor
        queue.async { [self, bytes] in
            var rest = bytes[...]
            while !rest.isEmpty {
                let written = rest.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    let reason = String(cString: strerror(errno))
                    if !markStopped() { onStop(.writeFailed(reason)) }
                    return
                }
                rest = rest.dropFirst(written)
            }
        }
    }
}
