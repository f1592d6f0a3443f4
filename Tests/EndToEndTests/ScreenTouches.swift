import Foundation

/// Which screen cells a stretch of terminal output wrote or erased: enough of a VT parser
/// (cursor moves, text, erases, repeats, insert/delete, scrolling) to tell whether the cells
/// under a sixel or iTerm2 picture were painted over again. Conservative where it cannot be
/// exact: scrolling and line insertion count as touching every row they move.
struct ScreenTouches {
    let rows: Int
    let columns: Int
    private(set) var touched: Set<Int> = []

    init(_ bytes: [UInt8], rows: Int, columns: Int) {
        self.rows = rows
        self.columns = columns
        scan(bytes)
    }

    func isTouched(row: Int, column: Int) -> Bool { touched.contains(row * columns + column) }

    private mutating func touch(row: Int, columns range: Range<Int>) {
        guard (0..<rows).contains(row) else { return }
        for column in range.clamped(to: 0..<columns) { touched.insert(row * columns + column) }
    }

    private mutating func touchRows(_ range: Range<Int>) {
        for row in range.clamped(to: 0..<rows) { touch(row: row, columns: 0..<columns) }
    }

    private mutating func scan(_ bytes: [UInt8]) {
        var row = 0, column = 0, saved = (0, 0)
        var index = 0
        var lastWasText = false
        func parameters(_ body: [UInt8]) -> [Int] {
            String(decoding: body.filter { $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: ">") }, as: UTF8.self)
                .split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x1B:
                guard index + 1 < bytes.count else { return }
                let next = bytes[index + 1]
                index += 2
                switch next {
                case UInt8(ascii: "["):
                    var body: [UInt8] = []
                    while index < bytes.count, !(0x40...0x7E).contains(bytes[index]) {
                        body.append(bytes[index])
                        index += 1
                    }
                    guard index < bytes.count else { return }
                    let final = bytes[index]
                    index += 1
                    let p = parameters(body)
                    let n = max(1, p.first ?? 1)
                    switch final {
                    case UInt8(ascii: "H"), UInt8(ascii: "f"):
                        row = max(1, p.first ?? 1) - 1
                        column = max(1, p.count > 1 ? p[1] : 1) - 1
                    case UInt8(ascii: "d"): row = n - 1
                    case UInt8(ascii: "G"), UInt8(ascii: "`"): column = n - 1
                    case UInt8(ascii: "A"): row -= n
                    case UInt8(ascii: "B"): row += n
                    case UInt8(ascii: "C"): column += n
                    case UInt8(ascii: "D"): column -= n
                    case UInt8(ascii: "K"):
                        switch p.first ?? 0 {
                        case 1: touch(row: row, columns: 0..<(column + 1))
                        case 2: touch(row: row, columns: 0..<columns)
                        default: touch(row: row, columns: column..<columns)
                        }
                    case UInt8(ascii: "X"): touch(row: row, columns: column..<(column + n))
                    case UInt8(ascii: "J"):
                        switch p.first ?? 0 {
                        case 1:
                            touchRows(0..<row)
                            touch(row: row, columns: 0..<(column + 1))
                        case 2, 3: touchRows(0..<rows)
                        default:
                            touch(row: row, columns: column..<columns)
                            touchRows((row + 1)..<rows)
                        }
                    case UInt8(ascii: "b") where lastWasText:
                        touch(row: row, columns: column..<(column + n))
                        column += n
                    case UInt8(ascii: "@"), UInt8(ascii: "P"): touch(row: row, columns: column..<columns)
                    case UInt8(ascii: "L"), UInt8(ascii: "M"): touchRows(row..<rows)
                    case UInt8(ascii: "S"), UInt8(ascii: "T"): touchRows(0..<rows)
                    default: break
                    }
                    lastWasText = false
                case UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "]"), UInt8(ascii: "^"), UInt8(ascii: "X"):
                    // A string (a picture, a title): skipped up to ST or BEL.
                    while index < bytes.count {
                        if bytes[index] == 0x07 {
                            index += 1
                            break
                        }
                        if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\") {
                            index += 2
                            break
                        }
                        index += 1
                    }
                case UInt8(ascii: "7"): saved = (row, column)
                case UInt8(ascii: "8"): (row, column) = saved
                case UInt8(ascii: "M"), UInt8(ascii: "D"), UInt8(ascii: "E"): touchRows(0..<rows)
                case UInt8(ascii: "("), UInt8(ascii: ")"): index += 1
                default: break
                }
            case UInt8(ascii: "\r"): column = 0
            case UInt8(ascii: "\n"): row += 1
            case 0x08: column -= 1
            case 0x00..<0x20, 0x7F: break
            case 0x80..<0xC0: break  // a UTF-8 continuation byte: the character was counted at its lead
            default:
                touch(row: row, columns: column..<(column + 1))
                column += 1
                lastWasText = true
                index += 1
                continue
            }
            if byte != 0x1B { index += 1 }
            if byte < 0x20 { lastWasText = false }
        }
    }
}
