import CaptureMode
import Domain
import Foundation
import Scanning
import TabShell

/// `tabshell doctor --scanner`: one test scan, read byte by byte with the time each arrived,
/// and what it tells about the scanner — keyboard layout, suffix (Enter, Tab), AIM prefix,
/// GS1 separator, speed — each finding with its fix.
public enum ScannerCheck {
    /// How long to wait for the scan to start.
    public static let waitSeconds: Int32 = 30

    public static func run(_ context: CommandContext, settingsLayout: LayoutTranslation?) throws -> Int32 {
        let keystrokes: [Keystroke]
        var note = ""
        if isatty(STDIN_FILENO) == 1 {
            try context.errors.write("Scan a test code now (a GS1 label with a lot shows the most); waiting \(waitSeconds) s.\n")
            guard let read = readScanFromTerminal() else {
                try context.output.write("No scan arrived in \(waitSeconds) s: check that the scanner is connected and set to keyboard (HID) mode.\n")
                try context.output.finish()
                return 1
            }
            keystrokes = read
        } else {
            // From a file or a pipe there is no timing: the speed is not measured.
            let text = String(decoding: try context.readInput(), as: UTF8.self)
            let line = text.prefix { $0 != "\n" && $0 != "\r" && $0 != "\t" }
            let suffix = text.dropFirst(line.count).first
            keystrokes = (Array(line) + (suffix.map { [$0] } ?? [])).enumerated().map {
                Keystroke($0.element, at: .milliseconds($0.offset))
            }
            note = "(Input was not a terminal: typing speed was not measured.)\n"
        }
        guard !keystrokes.isEmpty else {
            try context.output.write("Nothing was scanned.\n")
            try context.output.finish()
            return 1
        }
        let report = ScannerReport(keystrokes: keystrokes, options: ScanOptions(layout: settingsLayout, detectsLayout: settingsLayout == nil))
        let sanitizer = Sanitizer(unicode: context.localeIsUTF8)
        let body: [String] = report.lines.map { line in "  " + sanitizer.line(line) }
        try context.output.write("Scanner\n" + body.joined(separator: "\n") + "\n" + note)
        try context.output.finish()
        return 0
    }

    /// Puts the terminal in non-canonical mode without echo, reads until Enter, LF or Tab (or a
    /// pause of 2 s once the scan started), and puts the terminal back.
    private static func readScanFromTerminal() -> [Keystroke]? {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var raw = original
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_iflag &= ~tcflag_t(ICRNL | IXON)
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { _ = tcsetattr(STDIN_FILENO, TCSANOW, &original) }

        let origin = ContinuousClock.now
        var keystrokes: [Keystroke] = []
        var pending: [UInt8] = []
        while true {
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let timeout: Int32 = keystrokes.isEmpty && pending.isEmpty ? waitSeconds * 1000 : 2000
            let ready = poll(&descriptor, 1, timeout)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return keystrokes.isEmpty ? nil : keystrokes }
            var byte: UInt8 = 0
            guard read(STDIN_FILENO, &byte, 1) == 1 else { return keystrokes.isEmpty ? nil : keystrokes }
            let time = origin.duration(to: .now)
            pending.append(byte)
            // A character is complete when its UTF-8 bytes are.
            guard let text = String(validating: pending, as: UTF8.self) else {
                if pending.count >= 4 { pending = [] }
                continue
            }
            pending = []
            for character in text {
                keystrokes.append(Keystroke(character, at: time))
                if character == "\r" || character == "\n" || character == "\t" || character == "\r\n" { return keystrokes }
            }
        }
    }
}
