import Foundation
import Testing

@testable import Recording

/// The reader: what a v2 cast holds, and each way a file is not one, said with its line.
@Suite struct CastReaderTests {
    static let header = #"{"version": 2, "width": 80, "height": 24, "timestamp": 1700000000, "idle_time_limit": 1.5, "env": {"TERM": "xterm"}}"#

    static func error(_ text: String, limits: CastReader.Limits = .standard) -> CastReadError? {
        do {
            _ = try CastReader.parse(Data(text.utf8), limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func aCastIsItsHeaderAndEvents() throws {
        let text =
            Self.header + "\n" + #"[0.5, "o", "Inbox"]"# + "\n" + #"[1, "i", "q"]"# + "\n\n" + #"[1.25, "r", "90x28"]"# + "\n"
            + #"[2, "m", "marker"]"# + "\n" + #"[3, "o", "\u001b[0m"]"#
        let cast = try CastReader.parse(Data(text.utf8))
        #expect(cast.header == CastHeader(width: 80, height: 24, timestamp: 1_700_000_000, idleTimeLimit: 1.5, environment: ["TERM": "xterm"]))
        #expect(
            cast.events == [
                CastEvent(time: 0.5, kind: .output("Inbox")), CastEvent(time: 1.25, kind: .resize(columns: 90, rows: 28)),
                CastEvent(time: 3, kind: .output("\u{1B}[0m")),
            ])
    }

    @Test func whatTheWriterWritesReadsBack() throws {
        var encoder = CastEncoder(header: CastHeader(width: 120, height: 40, environment: ["TERM": "tmux-256color"]))
        var text = encoder.begin() ?? ""
        text += encoder.output(Array("\u{1B}[H\u{0}\u{1}é\"".utf8), at: 0.1).joined()
        text += encoder.resize(columns: 60, rows: 20, at: 0.2).joined()
        // A zero-width no-break space opening an event (found by fuzzing: Foundation drops it raw).
        text += encoder.output(Array("\u{FEFF}x".utf8), at: 0.3).joined()
        let cast = try CastReader.parse(Data(text.utf8))
        #expect(cast.header.width == 120 && cast.header.environment["TERM"] == "tmux-256color")
        #expect(
            cast.events == [
                CastEvent(time: 0.1, kind: .output("\u{1B}[H\u{0}\u{1}é\"")), CastEvent(time: 0.2, kind: .resize(columns: 60, rows: 20)),
                CastEvent(time: 0.3, kind: .output("\u{FEFF}x")),
            ])
    }

    @Test func everyMalformedFileIsSaidWithItsLine() {
        let h = Self.header + "\n"
        let cases: [(String, CastReadError)] = [
            ("", CastReadError(line: nil, "it is empty, not an asciicast recording")),
            ("\n  \n", CastReadError(line: nil, "it is empty, not an asciicast recording")),
            ("hello\n", CastReadError(line: nil, "it is not an asciicast recording: its first line is not a JSON header")),
            ("[1, 2]\n", CastReadError(line: nil, "it is not an asciicast recording: its first line is not a JSON header")),
            ("{\n  \"version\": 1,\n  \"width\": 80,\n  \"stdout\": []\n}\n", CastReadError(line: nil, "it is asciicast version 1; only version 2 is played")),
            (#"{"version": 3, "term": {"cols": 80, "rows": 24}}"#, CastReadError(line: nil, "it is asciicast version 3; only version 2 is played")),
            (#"{"width": 80, "height": 24}"#, CastReadError(line: nil, "it is not an asciicast recording: its header has no version")),
            (#"{"version": 2, "width": 80}"#, CastReadError(line: 1, "the header has no terminal size (width and height from 1 to 10000)")),
            (#"{"version": 2, "width": 0, "height": 24}"#, CastReadError(line: 1, "the header has no terminal size (width and height from 1 to 10000)")),
            (#"{"version": 2, "width": 80, "height": 99999}"#, CastReadError(line: 1, "the header has no terminal size (width and height from 1 to 10000)")),
            (h + #"[0.1, "o", "a"]"# + "\nnot json\n", CastReadError(line: 3, "the line is not an event ([time, code, data])")),
            (h + #"[0.1, "o"]"#, CastReadError(line: 2, "the line is not an event ([time, code, data])")),
            (h + #"["0.1", "o", "a"]"#, CastReadError(line: 2, "the line is not an event ([time, code, data])")),
            (h + #"[0.1, "o", 5]"#, CastReadError(line: 2, "the line is not an event ([time, code, data])")),
            (h + #"{"t": 1}"#, CastReadError(line: 2, "the line is not an event ([time, code, data])")),
            (h + #"[-1, "o", "a"]"#, CastReadError(line: 2, "the event's time is not a number of seconds from the start")),
            (h + #"[2, "o", "a"]"# + "\n" + #"[1, "o", "b"]"#, CastReadError(line: 3, "its time 1.0 comes before the previous event's 2.0")),
            (h + #"[1, "r", "80"]"#, CastReadError(line: 2, "the resize is not COLSxROWS")),
            (h + #"[1, "r", "0x24"]"#, CastReadError(line: 2, "the resize is not COLSxROWS")),
            (h + #"[1, "r", "axb"]"#, CastReadError(line: 2, "the resize is not COLSxROWS")),
        ]
        for (text, expected) in cases {
            #expect(Self.error(text) == expected, "\(text.debugDescription)")
        }
        // Not UTF-8 on line 2.
        var bytes = Array((h + "[0.1, \"o\", \"").utf8)
        bytes += [0xFF, 0xFE] + Array("\"]".utf8)
        #expect(throws: CastReadError(line: 2, "the line is not UTF-8 text")) { try CastReader.parse(Data(bytes)) }
    }

    @Test func theLimitsAreKept() {
        let small = CastReader.Limits(fileBytes: 1 << 20, lineBytes: 1 << 10, events: 2)
        let long = Self.header + "\n" + "[0.1, \"o\", \"" + String(repeating: "x", count: 2000) + "\"]\n"
        #expect(Self.error(long, limits: small) == CastReadError(line: 2, "the line is longer than 1 KiB"))
        let many = Self.header + "\n" + (0..<3).map { "[\($0), \"o\", \"x\"]" }.joined(separator: "\n")
        #expect(Self.error(many, limits: small) == CastReadError(line: 4, "the cast has more than 2 events, the most tabshell plays"))
        let big = CastReader.Limits(fileBytes: 1 << 20, lineBytes: 1 << 20, events: 10)
        #expect(Self.error(String(repeating: " ", count: (1 << 20) + 1), limits: big) == CastReadError(line: nil, "it is larger than 1 MiB, the most a cast may be"))
    }

    @Test func aFileIsCheckedBeforeItIsRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cast-read-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: CastReadError(line: nil, "it is not a file")) { try CastReader.read(path: folder.path) }
        let file = folder.appendingPathComponent("big.cast")
        try Data(count: 2 << 20).write(to: file)
        #expect(throws: CastReadError(line: nil, "it is larger than 1 MiB, the most a cast may be")) {
            try CastReader.read(path: file.path, limits: CastReader.Limits(fileBytes: 1 << 20))
        }
        #expect(throws: CastReadError.noSuchFile) { try CastReader.read(path: folder.appendingPathComponent("missing.cast").path) }
        #expect(throws: CastReadError.noSuchFile) { try CastReader.read(path: folder.appendingPathComponent("no/folder.cast").path) }
        let locked = folder.appendingPathComponent("locked.cast")
        try Data((Self.header + "\n").utf8).write(to: locked)
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
        if geteuid() != 0 {
            #expect(throws: CastReadError(line: nil, "it cannot be read: permission denied")) { try CastReader.read(path: locked.path) }
        }
    }

    /// Other JSON files carry a version too (a History export, an Inbox list): only a header with
    /// a recording's shape is named as asciicast, and Foundation's wording never shows.
    @Test func otherJSONIsNotCalledAnOldRecording() {
        let notACast = CastReadError(line: nil, "it is not an asciicast recording: its first line is JSON but not an asciicast header")
        let notAHeader = CastReadError(line: nil, "it is not an asciicast recording: its first line is not a JSON header")
        let cases: [(String, CastReadError)] = [
            // `history export --format json`: one object over many lines, version 1, no stdout.
            ("{\n  \"format\": \"tabshell-history\",\n  \"version\": 1,\n  \"records\": []\n}\n", notAHeader),
            // `inbox list --json` on one line.
            (#"{"version":1,"requests":[{"title":"Scan"}]}"#, notACast),
            (#"{"version": 2}"#, CastReadError(line: 1, "the header has no terminal size (width and height from 1 to 10000)")),
            (#"{"name": "x"}"#, notACast),
        ]
        for (text, expected) in cases {
            #expect(Self.error(text) == expected, "\(text.debugDescription)")
        }
    }
}
