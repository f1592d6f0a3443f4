import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Rows of a delimited text file read from a descriptor in 64 KiB chunks, so a file of any size
/// is read in constant memory. Commas follow RFC 4180 (a field in double quotes may hold commas,
/// line breaks and doubled quotes); tabs follow the tab-separated convention, where a quote is
/// just a character (Open Food Facts' export is tab-separated and its names hold quotes). A
/// UTF-8 byte-order mark is skipped; CRLF and LF both end a row; invalid UTF-8 becomes U+FFFD.
struct DelimitedReader {
    enum Failure: Error, Equatable {
        /// A quoted field still open at the end of the file; `line` is where it started.
        case unclosedQuote(line: Int)
        case unreadable(String)
    }

    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    /// The line the next row starts on (1-based).
    private(set) var line = 1
    private(set) var delimiter: UInt8 = UInt8(ascii: ",")
    private var started = false
    /// The columns whose text is wanted (nil: all); the others come back empty, unread, which
    /// keeps a 200-column export fast.
    var keptColumns: Set<Int>?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next row and the line it started on, or nil at the end of the file.
    mutating func nextRow() throws(Failure) -> (line: Int, fields: [String])? {
        if !started { try start() }
        guard try hasByte() else { return nil }
        let rowLine = line
        var fields: [String] = []
        var field: [UInt8] = []
        let quoting = delimiter == UInt8(ascii: ",")
        var quoted = false
        var fieldStart = true
        while true {
            guard try hasByte() else {
                if quoted { throw .unclosedQuote(line: rowLine) }
                fields.append(text(of: field, column: fields.count))
                return (rowLine, fields)
            }
            let byte = buffer[position]
            position += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if try hasByte(), buffer[position] == UInt8(ascii: "\"") {
                        field.append(byte)
                        position += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if byte == 10 { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where quoting && fieldStart:
                quoted = true
                fieldStart = false
            case delimiter:
                fields.append(text(of: field, column: fields.count))
                field.removeAll(keepingCapacity: true)
                fieldStart = true
            case 10:
                line += 1
                if field.last == 13 { field.removeLast() }
                fields.append(text(of: field, column: fields.count))
                return (rowLine, fields)
            default:
                field.append(byte)
                fieldStart = false
            }
        }
    }

    private func text(of field: [UInt8], column: Int) -> String {
        if let keptColumns, !keptColumns.contains(column) { return "" }
        return String(decoding: field, as: UTF8.self)
    }

    /// Skips a byte-order mark and chooses the delimiter from the first line: a tab if it has
    /// one, else a comma.
    private mutating func start() throws(Failure) {
        started = true
        guard try hasByte() else { return }
        // The whole first line, or as much of it as fits in the buffer after a refill.
        while !buffer[position...].contains(10), !atEnd, buffer.count - position < 1 << 20 {
            try refill()
        }
        if buffer[position...].starts(with: [0xEF, 0xBB, 0xBF]) { position += 3 }
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
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
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
