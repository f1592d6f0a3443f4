import Foundation
import TabShell
import Testing

@testable import TerminalInput

/// Every key sequence of every common terminal family, read from `infocmp` of its terminfo
/// entry at test time (so the table is checked against the entries, not against itself).
@Suite struct TerminfoSequenceTests {
    static let terminals = [
        "xterm-256color", "xterm", "rxvt-unicode-256color", "rxvt", "linux", "screen-256color",
        "tmux-256color", "putty", "vt220", "konsole", "gnome-256color", "st-256color",
    ]

    /// terminfo key capabilities and the key each stands for.
    static let capabilities: [String: Key] = {
        var table: [String: Key] = [
            "khome": .home, "kend": .end, "kich1": .insert, "kdch1": .delete, "kpp": .pageUp, "knp": .pageDown,
            "kcuu1": .up, "kcud1": .down, "kcub1": .left, "kcuf1": .right, "kcbt": .backTab,
            "kent": .enter,
            "kLFT": .modified(.left, .shift), "kRIT": .modified(.right, .shift),
            "kHOM": .modified(.home, .shift), "kEND": .modified(.end, .shift),
            "kDC": .modified(.delete, .shift), "kIC": .modified(.insert, .shift),
            "kNXT": .modified(.pageDown, .shift), "kPRV": .modified(.pageUp, .shift),
        ]
        for n in 1...12 { table["kf\(n)"] = .function(n) }
        // xterm's extended names: kUP3 is Alt-Up, kUP5 Ctrl-Up, kUP6 Ctrl-Shift-Up, ...
        let arrows: [String: Key] = [
            "kUP": .up, "kDN": .down, "kLFT": .left, "kRIT": .right, "kHOM": .home, "kEND": .end,
            "kDC": .delete, "kIC": .insert, "kNXT": .pageDown, "kPRV": .pageUp,
        ]
        for (name, key) in arrows {
            for level in 2...8 {
                table["\(name)\(level)"] = .modified(key, KeyModifiers(rawValue: level - 1))
            }
        }
        table["kUP"] = .modified(.up, .shift)
        table["kDN"] = .modified(.down, .shift)
        return table
    }()

    static func entries(of terminal: String) throws -> [(name: String, value: String)] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/infocmp")
        process.arguments = ["-1", "-x", terminal]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "="), trimmed.hasSuffix(",") else { return nil }
            let name = String(trimmed[..<equals])
            let value = String(trimmed[trimmed.index(after: equals)...].dropLast())
            return (name, Self.unescape(value))
        }
    }

    /// terminfo string escapes: \E, ^X, \\, \, and octal.
    static func unescape(_ text: String) -> String {
        var out = ""
        var characters = Array(text)[...]
        while let c = characters.popFirst() {
            if c == "^", let next = characters.popFirst(), let ascii = next.asciiValue {
                out.unicodeScalars.append(Unicode.Scalar(ascii & 0x1F))
            } else if c == "\\", let next = characters.popFirst() {
                switch next {
                case "E", "e": out += "\u{1B}"
                case "n": out += "\n"
                case "r": out += "\r"
                case "t": out += "\t"
                case "s": out += " "
                case "0"..."7":
                    var digits = String(next)
                    while digits.count < 3, let d = characters.first, ("0"..."7").contains(d) {
                        digits.append(d)
                        characters = characters.dropFirst()
                    }
                    out.unicodeScalars.append(Unicode.Scalar(UInt8(digits, radix: 8) ?? 0))
                default: out.append(next)
                }
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// What the unmodified keys send in any of the entries.
    static func plainSequences() throws -> Set<String> {
        var sequences = Set<String>()
        for terminal in terminals {
            for (name, value) in try entries(of: terminal) {
                if let key = capabilities[name], !{ if case .modified = key { true } else { false } }() {
                    sequences.insert(value)
                }
            }
        }
        return sequences
    }

    @Test(arguments: terminals)
    func everyKeyOfTheEntryDecodesToItsKey(terminal: String) throws {
        let entries = try Self.entries(of: terminal)
        try #require(!entries.isEmpty, "infocmp knows \(terminal)")
        let plain = try Self.plainSequences()
        var checked = 0
        for (name, value) in entries {
            guard let expected = Self.capabilities[name] else { continue }
            // rxvt's entry gives Ctrl-Shift-Up as ESC O A, which every other terminal sends
            // for plain Up: a byte string cannot be both, and plain wins.
            if case .modified = expected, plain.contains(value) { continue }
            var decoder = InputDecoder()
            var events = decoder.feed(value)
            events += decoder.timeOut()
            #expect(events == [.key(expected)], "\(terminal) \(name)=\(value.debugDescription)")
            checked += 1
        }
        #expect(checked >= 8, "\(terminal): only \(checked) key capabilities found")
    }

    @Test(arguments: terminals)
    func aKeyFollowedByTextLeavesTheTextAlone(terminal: String) throws {
        for (name, value) in try Self.entries(of: terminal) where Self.capabilities[name] != nil {
            var decoder = InputDecoder()
            let events = decoder.feed(value + "1~x")
            #expect(
                Array(events.dropFirst()) == [.key(.character("1")), .key(.character("~")), .key(.character("x"))],
                "\(terminal) \(name)")
        }
    }
}
