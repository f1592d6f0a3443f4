/// Turns what a terminal program wrote — bytes as they were read, cut anywhere — and the
/// terminal's size changes into asciicast v2 lines, within a size limit. Pure: the caller gives
/// the times and writes the lines.
///
/// A UTF-8 sequence cut between two reads is carried to the next event, so every event's text
/// is the characters the program wrote (bytes that are not UTF-8 become U+FFFD). Once the next
/// line would take the file over `sizeLimit`, the cast stops growing: whole lines only, so the
/// file stays playable.
public struct CastEncoder: Sendable {
    /// `serve --record`'s per-session default: 32 MiB (a half-hour demo is well under 1 MiB).
    public static let defaultSessionLimit = 32 << 20
    /// The most bytes of output one event carries; more is split into several events, so no
    /// line is longer than a reader accepts (``CastReader/Limits``).
    public static let maximumEventBytes = 32 << 10

    public let sizeLimit: Int
    /// Bytes of the lines handed out so far, the header included.
    public private(set) var bytesEncoded = 0
    /// True once a line was held back for the limit: nothing more is encoded.
    public private(set) var reachedLimit = false
    public private(set) var columns: Int
    public private(set) var rows: Int
    /// For casts anyone may play (`serve --record`): each event's text passes through it, so what
    /// is recorded holds no clipboard write, query or mode change a player's terminal would act
    /// on; and an unfinished sequence is never written, so a cut never halves one.
    public var filter: ReplayFilter?
    /// With ``filter``: a cast cut at its limit ends with ``cutText`` (room for it is kept).
    public var closesCleanly: Bool { filter != nil }
    /// The last event of a cast cut short: CAN ends any sequence a player is in, then the
    /// graphic rendition, the scroll margins, the cursor and line wrapping are put back.
    public static let cutText = "\u{18}\u{1B}[0m\u{1B}[r\u{1B}[?25h\u{1B}[?7h\r\n"
    /// Room kept under `sizeLimit` for the closing event.
    static let cutReserve = 64
    private let header: CastHeader
    private var began = false
    /// The start of a UTF-8 sequence whose end has not been read yet (at most 3 bytes).
    private var carry: [UInt8] = []
    private var lastTime = 0.0

    public init(header: CastHeader, sizeLimit: Int = CastEncoder.defaultSessionLimit) {
        self.header = header
        self.sizeLimit = sizeLimit
        self.columns = header.width
        self.rows = header.height
    }

    /// The header line; nil when even it does not fit the limit. Asked once.
    public mutating func begin() -> String? {
        guard !began else { return nil }
        began = true
        let line = header.line
        return admit(line) ? line : nil
    }

    /// The output events for `bytes` written at `time` seconds.
    public mutating func output(_ bytes: some Collection<UInt8>, at time: Double) -> [String] {
        guard !reachedLimit else { return [] }
        var all = carry
        all.append(contentsOf: bytes)
        let cut = Self.incompleteTailLength(all)
        carry = Array(all.suffix(cut))
        all.removeLast(cut)
        return closingIfCut(events(for: all, at: time), at: time)
    }

    /// The closing event after `lines` when this call reached the limit of a cast that closes cleanly.
    private mutating func closingIfCut(_ lines: [String], at time: Double) -> [String] {
        guard reachedLimit, closesCleanly, !closed else { return lines }
        closed = true
        let line = CastEvent(time: stamp(time), kind: .output(Self.cutText)).line
        bytesEncoded += line.utf8.count
        return lines + [line]
    }
    private var closed = false

    /// A resize event when the size differs from the last one recorded.
    public mutating func resize(columns: Int, rows: Int, at time: Double) -> [String] {
        guard !reachedLimit, columns != self.columns || rows != self.rows else { return [] }
        let line = CastEvent(time: stamp(time), kind: .resize(columns: columns, rows: rows)).line
        guard admit(line) else { return closingIfCut([], at: time) }
        self.columns = columns
        self.rows = rows
        return [line]
    }

    /// What is left at the end: a sequence cut short, as U+FFFD.
    public mutating func end(at time: Double) -> [String] {
        guard !reachedLimit, !carry.isEmpty else { return [] }
        let rest = carry
        carry = []
        return events(for: rest, at: time)
    }

    // MARK: - Helpers

    private mutating func events(for bytes: [UInt8], at time: Double) -> [String] {
        var lines: [String] = []
        var start = 0
        let time = stamp(time)
        while start < bytes.count {
            var end = min(start + Self.maximumEventBytes, bytes.count)
            // Cut between characters, not inside one (a run of continuation bytes is at most 3).
            var back = 0
            while end < bytes.count, back < 3, bytes[end] & 0xC0 == 0x80 {
                end -= 1
                back += 1
            }
            if end <= start { end = min(start + Self.maximumEventBytes, bytes.count) }
            var text = String(decoding: bytes[start..<end], as: UTF8.self)
            start = end
            if filter != nil, let kept = filter?.filter(text) {
                text = kept
                if text.isEmpty { continue }
            }
            let line = CastEvent(time: time, kind: .output(text)).line
            guard admit(line) else { break }
            lines.append(line)
        }
        return lines
    }

    /// Times never go back, so a reader that insists on order reads every file written here.
    private mutating func stamp(_ time: Double) -> Double {
        lastTime = max(lastTime, time.isFinite ? time : 0)
        return lastTime
    }

    private mutating func admit(_ line: String) -> Bool {
        guard !reachedLimit else { return false }
        let count = line.utf8.count
        guard bytesEncoded + count <= sizeLimit - (closesCleanly ? Self.cutReserve : 0) else {
            reachedLimit = true
            return false
        }
        bytesEncoded += count
        return true
    }

    /// How many bytes at the end of `bytes` begin a UTF-8 sequence that is not complete yet.
    static func incompleteTailLength(_ bytes: [UInt8]) -> Int {
        var index = bytes.count - 1
        var seen = 1
        while index >= 0, seen <= 3 {
            let byte = bytes[index]
            if byte & 0xC0 == 0x80 {
                index -= 1
                seen += 1
                continue
            }
            guard byte >= 0xC0 else { return 0 }
            let expected = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            return expected > seen ? seen : 0
        }
        return 0
    }
}
