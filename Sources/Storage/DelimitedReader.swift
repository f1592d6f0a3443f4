import Foundation

/// Rows of a delimited text file read from a descriptor in 64 KiB chunks (or from a file already
/// in memory, a chunk at a time), so a file of any size is read in constant memory. Commas follow
/// RFC 4180 (a field in double quotes may hold commas, line breaks and doubled quotes); tabs
/// follow the tab-separated convention, where a quote is just a character (Open Food Facts'
/// export is tab-separated and its names hold quotes). A UTF-8 byte-order mark is skipped; CRLF
/// and LF both end a row; invalid UTF-8 becomes U+FFFD unless ``requiresUTF8``.
///
/// What a row holds is bounded whatever the file: the columns not kept are skipped without being
/// held, the kept ones hold at most ``ImportLimits/maximumEntryBytes`` together, and a row has at
/// most ``ImportLimits/maximumFields`` fields. A row past a bound is read to its end and refused (the next row can
/// still be read).
struct DelimitedReader {
    enum Failure: Error, Equatable {
        /// A quoted field still open at the end of the file; `line` is where it started.
        case unclosedQuote(line: Int)
        case unreadable(String)
        /// A row whose kept fields hold more than ``ImportLimits/maximumEntryBytes``.
        case rowTooLong(line: Int)
        /// A row of more than ``ImportLimits/maximumFields`` fields.
        case tooManyFields(line: Int)
        /// A field that is not UTF-8, when ``requiresUTF8``.
        case notUTF8(line: Int)
    }

    private enum Source {
        case descriptor(Int32)
        /// A file in memory and the offset of what is not in the buffer yet.
        case bytes(Data, next: Int)
    }

    private var source: Source
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    /// The line the next row starts on (1-based).
    private(set) var line = 1
    private(set) var delimiter: UInt8 = UInt8(ascii: ",")
    private var fixedDelimiter: UInt8?
    private var started = false
    /// The columns whose text is wanted (nil: all); the others come back empty, unread, which
    /// keeps a 200-column export fast and a huge field in a column nobody reads harmless.
    var keptColumns: Set<Int>?
    /// Whether a field that is not UTF-8 is a failure (else its bad bytes become U+FFFD).
    var requiresUTF8 = false

    init(descriptor: Int32) {
        self.source = .descriptor(descriptor)
    }

    /// `data` read as a file; `delimiter` when the file's is known (else it is told from the first
    /// line, as for a descriptor).
    init(data: Data, delimiter: UInt8? = nil) {
        self.source = .bytes(data, next: data.startIndex)
        self.fixedDelimiter = delimiter
    }

    /// The next row and the line it started on, or nil at the end of the file.
    mutating func nextRow() throws(Failure) -> (line: Int, fields: [String])? {
        if !started { try start() }
        guard try hasByte() else { return nil }
        var row = Row(line: line, keptColumns: keptColumns, keeping: keptColumns?.contains(0) ?? true)
        let quoting = delimiter == UInt8(ascii: ",")
        var quoted = false
        var fieldStart = true
        while true {
            guard try hasByte() else {
                if quoted { throw .unclosedQuote(line: row.line) }
                return try row.end(requiresUTF8: requiresUTF8)
            }
            let byte = buffer[position]
            position += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if try hasByte(), buffer[position] == UInt8(ascii: "\"") {
                        row.hold(byte)
                        position += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == 10 { line += 1 }
                    row.hold(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where quoting && fieldStart:
                quoted = true
                fieldStart = false
            case delimiter:
                try row.endField(requiresUTF8: requiresUTF8)
                fieldStart = true
            case 13:
                // CRLF: the LF ends the row; a CR alone is text.
                if try hasByte(), buffer[position] == 10 { break }
                row.hold(byte)
                fieldStart = false
            case 10:
                line += 1
                return try row.end(requiresUTF8: requiresUTF8)
            default:
                row.hold(byte)
                fieldStart = false
            }
        }
    }

    /// One row as it is read: its fields so far, the field being read (held only when its column
    /// is kept), and the bound it passed, if any (what follows is then read but not held).
    private struct Row {
        let line: Int
        let keptColumns: Set<Int>?
        let maximumBytes = ImportLimits.maximumEntryBytes
        let maximumFields = ImportLimits.maximumFields
        var fields: [String] = []
        var field: [UInt8] = []
        var keeping: Bool
        var heldBytes = 0
        var failure: Failure?

        @inline(__always)
        mutating func hold(_ byte: UInt8) {
            guard keeping else { return }
            heldBytes += 1
            guard heldBytes <= maximumBytes else {
                if failure == nil { failure = .rowTooLong(line: line) }
                keeping = false
                field = []
                return
            }
            field.append(byte)
        }

        mutating func endField(requiresUTF8: Bool) throws(Failure) {
            if failure == nil, fields.count >= maximumFields { failure = .tooManyFields(line: line) }
            if failure == nil { fields.append(try text(requiresUTF8: requiresUTF8)) }
            field.removeAll(keepingCapacity: true)
            keeping = failure == nil && (keptColumns?.contains(fields.count) ?? true)
        }

        mutating func end(requiresUTF8: Bool) throws(Failure) -> (line: Int, fields: [String]) {
            try endField(requiresUTF8: requiresUTF8)
            if let failure { throw failure }
            return (line, fields)
        }

        private func text(requiresUTF8: Bool) throws(Failure) -> String {
            guard keeping else { return "" }
            if requiresUTF8 {
                guard let text = String(validating: field, as: UTF8.self) else { throw .notUTF8(line: line) }
                return text
            }
            return String(decoding: field, as: UTF8.self)
        }
    }

    /// Skips a byte-order mark and chooses the delimiter from the first line: a tab if it has
    /// one, else a comma.
    private mutating func start() throws(Failure) {
        started = true
        guard try hasByte() else { return }
        // The whole first line, or as much of it as fits in the buffer after a refill.
        while fixedDelimiter == nil, !buffer[position...].contains(10), !atEnd, buffer.count - position < 1 << 20 {
            try refill()
        }
        if buffer[position...].starts(with: [0xEF, 0xBB, 0xBF]) { position += 3 }
        if let fixedDelimiter {
            delimiter = fixedDelimiter
            return
        }
        let firstLine = buffer[position...].prefix { $0 != 10 }
        delimiter = firstLine.contains(9) ? 9 : UInt8(ascii: ",")
    }

    private mutating func hasByte() throws(Failure) -> Bool {
        if position < buffer.count { return true }
        if atEnd { return false }
        try refill()
        return position < buffer.count
    }

    /// Reads the next chunk, keeping what is not consumed yet.
    private mutating func refill() throws(Failure) {
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        let chunkBytes = 1 << 16
        switch source {
        case let .bytes(data, next):
            let end = min(next + chunkBytes, data.endIndex)
            buffer.append(contentsOf: data[next..<end])
            source = .bytes(data, next: end)
            if end == data.endIndex { atEnd = true }
        case let .descriptor(descriptor):
            var chunk = [UInt8](repeating: 0, count: chunkBytes)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw .unreadable(String(cString: strerror(errno)).lowercased())
                }
                if count == 0 { atEnd = true }
                buffer.append(contentsOf: chunk.prefix(count))
                return
            }
        }
    }
}
