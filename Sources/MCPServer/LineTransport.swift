import Foundation
import Logging
import MCP

/// MCP's stdio framing (one JSON-RPC message a line) with a bound: a line longer than
/// `maximumLineBytes` is dropped whole, however long it runs, and answered with one parse
/// error, so a client cannot make the server hold a 100 MB line. The SDK's own
/// `StdioTransport` keeps every byte until a newline and polls a non-blocking descriptor; this
/// one reads with blocking calls on a thread of its own and writes whole lines under a lock.
public actor LineTransport: Transport {
    /// One message a line; a request that files a request or asks for a record is well under
    /// 100 KB, so 1 MiB leaves room and still bounds what one line can cost.
    public static let defaultMaximumLineBytes = 1 << 20

    public nonisolated let logger: Logger
    private let input: Int32
    private let writer: LineWriter
    private let maximumLineBytes: Int
    private let stream: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    /// How many read lines may wait for the server: the reading thread stops reading (and
    /// the client's writes block) until the server takes one.
    private let credits = DispatchSemaphore(value: 64)
    /// The requests read and not yet answered.
    private let ledger = RequestLedger()
    private var started = false

    public init(input: Int32 = 0, output: Int32 = 1, maximumLineBytes: Int = defaultMaximumLineBytes, logger: Logger) {
        self.input = input
        self.writer = LineWriter(descriptor: output)
        self.maximumLineBytes = maximumLineBytes
        self.logger = logger
        (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
    }

    public func connect() async throws {
        guard !started else { return }
        started = true
        let reader = LineReader(
            descriptor: input, maximumLineBytes: maximumLineBytes, continuation: continuation, credits: credits, writer: writer,
            logger: logger)
        let thread = Thread { reader.run() }
        thread.name = "tabshell.mcp.read"
        thread.start()
    }

    public func disconnect() async {
        continuation.finish()
    }

    public func send(_ data: Data) async throws {
        try writer.write(line: data)
        ledger.answered(data)
    }

    /// Returns once every request read has been answered, or `limit` has passed.
    public func drained(within limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while !ledger.isEmpty, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    public func receive() -> AsyncThrowingStream<Data, any Error> {
        let lines = LineCursor(stream: stream, credits: credits, ledger: ledger)
        return AsyncThrowingStream(unfolding: { try await lines.next() })
    }
}

/// The server's side of the stream: each line taken gives the reading thread a credit back.
final class LineCursor: @unchecked Sendable {
    private var iterator: AsyncThrowingStream<Data, any Error>.AsyncIterator
    private let credits: DispatchSemaphore
    private let ledger: RequestLedger

    init(stream: AsyncThrowingStream<Data, any Error>, credits: DispatchSemaphore, ledger: RequestLedger) {
        iterator = stream.makeAsyncIterator()
        self.credits = credits
        self.ledger = ledger
    }

    func next() async throws -> Data? {
        let line = try await iterator.next()
        if let line {
            credits.signal()
            ledger.read(line)
        }
        return line
    }
}

/// The ids of the requests read and not yet answered (a notification has no id and wants no
/// answer), so the process can let in-flight answers out before it exits.
final class RequestLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var open = Set<String>()

    var isEmpty: Bool { lock.withLock { open.isEmpty } }

    func read(_ line: Data) {
        let ids = Self.ids(in: line, where: { $0["method"] != nil })
        lock.withLock { open.formUnion(ids) }
    }

    func answered(_ line: Data) {
        let ids = Self.ids(in: line, where: { $0["method"] == nil })
        lock.withLock { open.subtract(ids) }
    }

    /// The ids of the messages in `line` (one, or a batch) that `matches`, as their JSON text.
    static func ids(in line: Data, where matches: ([String: Any]) -> Bool) -> [String] {
        guard let parsed = try? JSONSerialization.jsonObject(with: line, options: [.fragmentsAllowed]) else { return [] }
        let messages = (parsed as? [[String: Any]]) ?? [parsed as? [String: Any]].compactMap { $0 }
        return messages.compactMap { message in
            guard matches(message), let id = message["id"], !(id is NSNull) else { return nil }
            return "\(id)"
        }
    }
}

/// Writes one message and its newline at a time, whole, under a lock.
final class LineWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func write(line: Data) throws {
        var bytes = line
        bytes.append(UInt8(ascii: "\n"))
        try lock.withLock {
            try bytes.withUnsafeBytes { raw in
                guard var base = raw.baseAddress else { return }
                var left = raw.count
                while left > 0 {
                    let written = Glibc.write(descriptor, base, left)
                    if written < 0 {
                        if errno == EINTR || errno == EAGAIN { continue }
                        throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                    }
                    left -= written
                    base += written
                }
            }
        }
    }
}

/// The reading thread: lines into the stream, an overlong line dropped and answered once.
struct LineReader: Sendable {
    let descriptor: Int32
    let maximumLineBytes: Int
    let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    let credits: DispatchSemaphore
    let writer: LineWriter
    let logger: Logger

    func run() {
        var pending = [UInt8]()
        var discarding = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var start = 0
            for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                if discarding {
                    discarding = false
                } else {
                    pending.append(contentsOf: buffer[start..<index])
                    deliver(pending)
                }
                pending.removeAll(keepingCapacity: pending.count <= 64 * 1024)
                start = index + 1
            }
            guard !discarding, start < count else { continue }
            pending.append(contentsOf: buffer[start..<count])
            if pending.count > maximumLineBytes {
                pending = []
                discarding = true
                refuseOverlongLine()
            }
        }
        if !discarding, !pending.isEmpty { deliver(pending) }
        continuation.finish()
    }

    private func deliver(_ line: [UInt8]) {
        let trimmed = line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...]
        guard trimmed.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { return }
        credits.wait()
        continuation.yield(Data(trimmed))
    }

    private func refuseOverlongLine() {
        logger.warning("mcp: a message over \(maximumLineBytes) bytes was dropped")
        let answer =
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"A message can be at most \#(maximumLineBytes) bytes; this one was dropped."}}"#
        try? writer.write(line: Data(answer.utf8))
    }
}
