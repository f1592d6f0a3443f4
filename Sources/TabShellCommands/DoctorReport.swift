import Domain
import Foundation
import Logging
import PostgresStorage
import SQLiteStorage
import Storage
import TabShell
import TerminalScreen

/// The lines of `tabshell doctor`'s report.
struct DoctorReport {
    public enum Line {
        case section(String)
        case ok(String)
        case note(String)
        case problem(String, fix: String)
    }

    private(set) var lines: [Line] = []

    public var problemCount: Int {
        lines.filter { if case .problem = $0 { true } else { false } }.count
    }

    public mutating func section(_ title: String) { lines.append(.section(title)) }
    public mutating func ok(_ text: String) { lines.append(.ok(text)) }
    public mutating func note(_ text: String) { lines.append(.note(text)) }
    public mutating func problem(_ text: String, fix: String) { lines.append(.problem(text, fix: fix)) }

    /// The report as text. With a `width` (the terminal's columns, when the report goes to
    /// one), each item is wrapped at spaces to fit it, its later lines under its first word, and
    /// a word longer than a line (a path) is broken at the edge, so no line is wider than the
    /// terminal; without one (a pipe), each item stays on one line.
    public func render(unicode: Bool, width: Int? = nil) -> String {
        let sanitizer = Sanitizer(unicode: unicode)
        /// `lead` then `text`, wrapped under the text's first column; on a terminal too narrow
        /// for that, wrapped from the left edge.
        func item(_ lead: String, _ text: String) -> String {
            let text = sanitizer.line(text)
            guard let width, width > 0 else { return lead + text + "\n" }
            let room = width - lead.count
            guard room >= Self.leastRoomBesideLead else {
                return Self.wordWrap(lead.trimmingCharacters(in: .whitespaces) + " " + text, width: width).map { $0 + "\n" }.joined()
            }
            let indent = String(repeating: " ", count: lead.count)
            return Self.wordWrap(text, width: room).enumerated().map { index, line in (index == 0 ? lead : indent) + line + "\n" }.joined()
        }
        var out = ""
        for line in lines {
            switch line {
            case let .section(title): out += (out.isEmpty ? "" : "\n") + title + "\n"
            case let .ok(text): out += item("  ok       ", text)
            case let .note(text): out += item("  note     ", text)
            case let .problem(text, fix):
                out += item("  PROBLEM  ", text)
                out += item("           fix: ", fix)
            }
        }
        let count = problemCount
        out += "\n" + (count == 0 ? "No problems found.\n" : "\(count) problem\(plural(count)) found.\n")
        return out
    }
}

extension DoctorReport {
    /// The least room for an item's text beside its lead (`  PROBLEM  `, `fix: `); narrower, the
    /// item wraps from the left edge.
    public static let leastRoomBesideLead = 10

    /// `text` in lines of at most `width` cells, broken at spaces (a run of them counts as one);
    /// a word longer than a line (a path) is broken into pieces of `width` cells, so the
    /// terminal never has to fold a line.
    static func wordWrap(_ text: String, width: Int) -> [String] {
        TextWrap.lines(text.split(separator: " ").joined(separator: " "), width: width)
    }
}

/// Finds and reads compiled terminfo entries, without curses (doctor must work where curses
/// would fail, and must not touch the terminal).
public enum Terminfo {
    /// The entry file for `term`, searched where ncurses searches.
    public static func find(_ term: String, environment: [String: String]) -> String? {
        guard !term.contains("/"), let first = term.unicodeScalars.first else { return nil }
        var directories: [String] = []
        if let dir = environment["TERMINFO"], !dir.isEmpty { directories.append(dir) }
        if let home = environment["HOME"], !home.isEmpty { directories.append(home + "/.terminfo") }
        for dir in (environment["TERMINFO_DIRS"] ?? "").split(separator: ":") { directories.append(String(dir)) }
        directories += ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo", "/usr/lib/terminfo"]
        let letters = [String(first), String(first.value, radix: 16)]
        for directory in directories {
            for letter in letters {
                let path = directory + "/" + letter + "/" + term
                if FileManager.default.isReadableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    /// The `colors` number of a compiled entry (legacy or 32-bit format); nil when absent or unreadable.
    public static func maxColors(at path: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 12 else { return nil }
        let bytes = [UInt8](data)
        /// The little-endian signed number of `size` bytes at `offset`.
        func number(_ offset: Int, size: Int = 2) -> Int {
            let value = (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
            return value >= 1 << (8 * size - 1) ? value - (1 << (8 * size)) : value
        }
        let magic = number(0)
        guard magic == 0o432 || magic == 0o1036 else { return nil }
        let numberSize = magic == 0o1036 ? 4 : 2
        let namesSize = number(2), boolCount = number(4), numberCount = number(6)
        let colorsIndex = 13
        guard namesSize >= 0, boolCount >= 0, numberCount > colorsIndex else { return nil }
        var offset = 12 + namesSize + boolCount
        if offset % 2 == 1 { offset += 1 }
        offset += colorsIndex * numberSize
        guard offset + numberSize <= bytes.count else { return nil }
        let value = number(offset, size: numberSize)
        return value < 0 ? nil : value
    }
}

public func plural(_ count: Int) -> String { count == 1 ? "" : "s" }

/// A path as a shell word: quoted only when it needs to be.
public func shellQuoted(_ path: String) -> String {
    let safe = path.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+,:@%".unicodeScalars.contains($0) }
    return safe ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// "1.5 GiB", "320 MiB", "12 KiB", "512 B".
public func byteCount(_ bytes: Int64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    return unit == 0 ? "\(bytes) B" : String(format: value < 10 ? "%.1f" : "%.0f", value) + " " + units[unit]
}
