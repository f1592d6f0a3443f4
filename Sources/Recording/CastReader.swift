import Foundation

/// A cast read from a file: its header and its events in order.
public struct Cast: Sendable, Equatable {
    public var header: CastHeader
    public var events: [CastEvent]

    /// All the output text, in order (what a terminal would have been sent).
    public var outputText: String {
        events.reduce(into: "") { text, event in
            if case .output(let piece) = event.kind { text += piece }
        }
    }
}

/// Why a file could not be read as a cast: one sentence, with the line when there is one.
public struct CastReadError: Error, Equatable, Sendable {
    /// 1-based; nil for what concerns the whole file.
    public let line: Int?
    public let sentence: String

    public init(line: Int?, _ sentence: String) {
        self.line = line
        self.sentence = sentence
    }

    /// Nothing at the path: said by the caller as "No such file: NAME.", not as a property of a file.
    public static let noSuchFile = CastReadError(line: nil, "there is no such file")
}

/// Reads asciicast v2 (docs/ssh-server.md, "Recording and replay"), refusing what is not one
/// with a sentence: an empty or oversized file, a first line that is no JSON header, another
/// version, a header without a size, and any line that is not an event — by its line number.
/// Bounded: the file's size, each line's length and the number of events are capped.
public enum CastReader {
    public struct Limits: Sendable {
        public var fileBytes = 64 << 20
        public var lineBytes = 1 << 20
        public var events = 1_000_000

        public static let standard = Limits()
    }

    /// The largest terminal a header may describe (the server's own clamp is 1000 × 500).
    static let maximumColumns = 10_000
    static let maximumRows = 10_000

    /// Reads the file at `path` (its size checked before it is read). A path with nothing there
    /// is ``CastReadError/noSuchFile``; other failures are said with the system's reason.
    public static func read(path: String, limits: Limits = .standard) throws(CastReadError) -> Cast {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw openError(errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw openError(errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw CastReadError(line: nil, "it is not a file") }
        guard Int(status.st_size) <= limits.fileBytes else {
            throw CastReadError(line: nil, "it is larger than \(limits.fileBytes >> 20) MiB, the most a cast may be")
        }
        // Read to the end (the file may have grown since fstat), never much past the limit:
        // `parse` refuses what is over it.
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while bytes.count <= limits.fileBytes {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw openError(errno) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return try parse(Data(bytes), limits: limits)
    }

    /// Why `open`, `fstat` or `read` failed, as the end of a sentence.
    private static func openError(_ code: Int32) -> CastReadError {
        switch code {
        case ENOENT, ENOTDIR: .noSuchFile
        case EACCES, EPERM: CastReadError(line: nil, "it cannot be read: permission denied")
        case EISDIR: CastReadError(line: nil, "it is not a file")
        default: CastReadError(line: nil, "it cannot be read: \(String(cString: strerror(code)).lowercased())")
        }
    }

    public static func parse(_ data: Data, limits: Limits = .standard) throws(CastReadError) -> Cast {
        guard data.count <= limits.fileBytes else {
            throw CastReadError(line: nil, "it is larger than \(limits.fileBytes >> 20) MiB, the most a cast may be")
        }
        // A newline at the end leaves an empty last line, skipped as every blank one is.
        let lines = [UInt8](data).split(separator: 0x0A, omittingEmptySubsequences: false).enumerated().map {
            (number: $0.offset + 1, bytes: $0.element)
        }

        guard let first = lines.first(where: { !$0.bytes.allSatisfy(Self.isBlank) }) else {
            throw CastReadError(line: nil, "it is empty, not an asciicast recording")
        }
        guard first.bytes.count <= limits.lineBytes else {
            throw CastReadError(line: first.number, "the line is longer than \(limits.lineBytes >> 10) KiB")
        }
        let header = try readHeader(first.bytes, line: first.number, whole: data)

        var events: [CastEvent] = []
        var lastTime = 0.0
        for line in lines where line.number > first.number {
            if line.bytes.allSatisfy(Self.isBlank) { continue }
            guard line.bytes.count <= limits.lineBytes else {
                throw CastReadError(line: line.number, "the line is longer than \(limits.lineBytes >> 10) KiB")
            }
            guard let event = try readEvent(line.bytes, line: line.number) else { continue }
            guard event.time >= lastTime else {
                throw CastReadError(line: line.number, "its time \(event.time) comes before the previous event's \(lastTime)")
            }
            lastTime = event.time
            guard events.count < limits.events else {
                throw CastReadError(line: line.number, "the cast has more than \(limits.events) events, the most tabshell plays")
            }
            events.append(event)
        }
        return Cast(header: header, events: events)
    }

    // MARK: - Lines

    private static func readHeader(_ bytes: ArraySlice<UInt8>, line: Int, whole: Data) throws(CastReadError) -> CastHeader {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            // asciicast v1 is one JSON object over many lines, with its output in `stdout`.
            if let object = (try? JSONSerialization.jsonObject(with: whole)) as? [String: Any], object["stdout"] is [Any],
                let version = integer(object["version"])
            {
                throw CastReadError(line: nil, "it is asciicast version \(version); only version 2 is played")
            }
            throw CastReadError(line: nil, "it is not an asciicast recording: its first line is not a JSON header")
        }
        // Another JSON file (an export, a list) may have a version too: only a header with a
        // recording's shape is named as one.
        guard isShapedLikeAHeader(object) else {
            throw CastReadError(line: nil, "it is not an asciicast recording: its first line is JSON but not an asciicast header")
        }
        guard let version = integer(object["version"]) else {
            throw CastReadError(line: nil, "it is not an asciicast recording: its header has no version")
        }
        guard version == CastHeader.version else {
            throw CastReadError(line: nil, "it is asciicast version \(version); only version 2 is played")
        }
        guard let width = integer(object["width"]), let height = integer(object["height"]),
            (1...maximumColumns).contains(width), (1...maximumRows).contains(height)
        else {
            throw CastReadError(line: line, "the header has no terminal size (width and height from 1 to 10000)")
        }
        var header = CastHeader(width: width, height: height)
        header.timestamp = integer(object["timestamp"])
        if let limit = number(object["idle_time_limit"]), limit.isFinite, limit > 0 { header.idleTimeLimit = limit }
        if let environment = object["env"] as? [String: Any] {
            header.environment = environment.compactMapValues { $0 as? String }
        }
        header.title = object["title"] as? String
        return header
    }

    /// An event, or nil for a kind that is not played (input, markers, others).
    private static func readEvent(_ bytes: ArraySlice<UInt8>, line: Int) throws(CastReadError) -> CastEvent? {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw CastReadError(line: line, "the line is not UTF-8 text")
        }
        guard let array = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [Any], array.count == 3,
            let time = number(array[0]), let code = array[1] as? String, let data = array[2] as? String
        else {
            throw CastReadError(line: line, "the line is not an event ([time, code, data])")
        }
        guard time.isFinite, time >= 0, time < 1e9 else {
            throw CastReadError(line: line, "the event's time is not a number of seconds from the start")
        }
        switch code {
        case "o":
            return CastEvent(time: time, kind: .output(data))
        case "r":
            let parts = data.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
                (1...maximumColumns).contains(columns), (1...maximumRows).contains(rows)
            else {
                throw CastReadError(line: line, "the resize is not COLSxROWS")
            }
            return CastEvent(time: time, kind: .resize(columns: columns, rows: rows))
        default:
            return nil
        }
    }

    // MARK: - JSON values

    /// A recording's header by its shape: v2's version, a terminal size (v1, v2), v3's `term`, v1's `stdout`.
    private static func isShapedLikeAHeader(_ object: [String: Any]) -> Bool {
        integer(object["version"]) == CastHeader.version || object["width"] != nil || object["height"] != nil
            || object["term"] is [String: Any] || object["stdout"] is [Any]
    }

    /// An integer in the JSON (a whole number).
    private static func integer(_ value: Any?) -> Int? {
        guard let value else { return nil }
        if let int = value as? Int { return int }
        if let double = value as? Double, double.rounded() == double, abs(double) < 1e15 { return Int(double) }
        return nil
    }

    private static func number(_ value: Any?) -> Double? {
        guard let value else { return nil }
        if let double = value as? Double { return double }
        if let int = value as? Int { return Double(int) }
        return nil
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
