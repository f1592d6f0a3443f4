import Foundation
import TestSupport
import Testing

@testable import Recording

/// Seeded fuzzing (TABSHELL_FUZZ_SEED replays): the filter never lets a string, a query or a
/// control through however the sequences are cut; the reader only ever refuses with a sentence;
/// whatever bytes are recorded, in whatever pieces, the cast reads back as exactly their text.
@Suite struct RecordingFuzzTests {
    /// Pieces hostile casts are made of.
    static let pieces: [String] = [
        "\u{1B}", "[", "]", "P", "_", "^", "X", "\\", "\u{07}", "\u{18}", "\u{1A}", "\u{9B}", "\u{9C}", "\u{9D}", "\u{90}", "?", ">", "=",
        "<", "$", " ", "!", "52;c;", "0;", "6n", "c", "t", "1049h", "1000h", "25l", "q", "p", "m", "31", ";", "\u{05}", "\u{00}", "\u{7F}",
        "a", "é", "😀", "\r\n", "(", "0", "#", "%", "G", "Z", "7", "8", "u", "\u{0E}",
    ]

    /// What may reach the terminal from the filter: no string introducer, no query final, no
    /// control but the kept ones.
    static func isSafe(_ output: String) -> Bool {
        let scalars = Array(output.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            let value = scalar.value
            if (0x80...0x9F).contains(value) || value == 0x7F { return false }
            if value < 0x20, ![0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x1B].contains(value) { return false }
            guard value == 0x1B else { continue }
            guard index + 1 < scalars.count else { return false }  // an escape is always whole
            let next = scalars[index + 1]
            if "]P_^XcZ".unicodeScalars.contains(next) { return false }
            if next == "[" {
                var end = index + 2
                while end < scalars.count, !(0x40...0x7E).contains(scalars[end].value) { end += 1 }
                guard end < scalars.count else { return false }
                let body = String(String.UnicodeScalarView(scalars[(index + 2)..<end]))
                let final = scalars[end]
                if body.hasPrefix(">") || body.hasPrefix("<") || body.hasPrefix("=") { return false }
                if "nctixy".unicodeScalars.contains(final) { return false }
                if body.contains("$") { return false }
                if body.hasPrefix("?"), final == "h" || final == "l" {
                    let modes = body.dropFirst().split(separator: ";").compactMap { Int($0) }
                    if !modes.allSatisfy(ReplayFilter.keptPrivateModes.contains) { return false }
                }
            }
        }
        return true
    }

    @Test func theFilterLetsNothingHostileThroughHoweverItIsCut() {
        var fuzz = Fuzz("replay filter")
        let result = fuzz.run { fuzz in
            let text = (0..<fuzz.below(40)).map { _ in fuzz.pick(Self.pieces) }.joined()
            var whole = ReplayFilter()
            let once = whole.filter(text)
            // The same text cut into events at random places gives the same output.
            var cut = ReplayFilter()
            var pieces = ""
            var rest = Substring(text)
            while !rest.isEmpty {
                let count = 1 + fuzz.below(max(1, rest.count))
                pieces += cut.filter(String(rest.prefix(count)))
                rest = rest.dropFirst(count)
            }
            #expect(Self.isSafe(once), "seed \(fuzz.seed): \(text.debugDescription) gave \(once.debugDescription)")
            #expect(pieces == once, "seed \(fuzz.seed): cutting changed \(text.debugDescription)")
            // Filtered output is filtered to itself (nothing kept is half a sequence).
            var again = ReplayFilter()
            #expect(again.filter(once) == once, "seed \(fuzz.seed): \(text.debugDescription)")
        }
        #expect(result.runs > 0 && result.slow == 0)
    }

    @Test func theReaderRefusesMutatedCastsWithASentence() {
        var fuzz = Fuzz("cast reader")
        let valid = Array(
            (#"{"version": 2, "width": 80, "height": 24, "env": {"TERM": "xterm"}}"# + "\n" + #"[0.1, "o", "a\u001b[1mb"]"# + "\n"
                + #"[0.5, "r", "90x28"]"# + "\n").utf8)
        let result = fuzz.run { fuzz in
            var bytes = valid
            for _ in 0..<(1 + fuzz.below(4)) {
                switch fuzz.below(4) {
                case 0: if !bytes.isEmpty { bytes[fuzz.below(bytes.count)] = UInt8(truncatingIfNeeded: fuzz.next()) }
                case 1: if !bytes.isEmpty { bytes.remove(at: fuzz.below(bytes.count)) }
                case 2: bytes.insert(contentsOf: Array(fuzz.pick(Fuzz.hostileWords).utf8), at: fuzz.below(bytes.count + 1))
                default: bytes.insert(fuzz.pick([0x0A, 0x22, 0x5B, 0x5D, 0x2C, 0x7B, 0x7D, 0x5C]), at: fuzz.below(bytes.count + 1))
                }
            }
            do throws(CastReadError) {
                let cast = try CastReader.parse(Data(bytes))
                #expect(cast.header.width >= 1 && cast.header.height >= 1)
            } catch {
                #expect(!error.sentence.isEmpty && !error.sentence.contains("\n"), "seed \(fuzz.seed)")
            }
        }
        #expect(result.runs > 0 && result.slow == 0)
    }

    @Test func whateverIsRecordedInWhateverPiecesReadsBackAsItsText() throws {
        var fuzz = Fuzz("cast encoder")
        let result = try fuzz.run { fuzz in
            let text = (0..<fuzz.below(30)).map { _ in fuzz.pick(Self.pieces + Fuzz.hostileWords) }.joined()
            let bytes = Array(text.utf8)
            var encoder = CastEncoder(header: CastHeader(width: 80, height: 24))
            var file = encoder.begin() ?? ""
            var start = 0
            var time = 0.0
            while start < bytes.count {
                let end = min(bytes.count, start + 1 + fuzz.below(8))
                file += encoder.output(bytes[start..<end], at: time).joined()
                if fuzz.below(5) == 0 { file += encoder.resize(columns: 1 + fuzz.below(300), rows: 1 + fuzz.below(100), at: time).joined() }
                time += Double(fuzz.below(1000)) / 1000
                start = end
            }
            file += encoder.end(at: time).joined()
            let cast = try CastReader.parse(Data(file.utf8))
            #expect(cast.outputText == text, "seed \(fuzz.seed)")
        }
        #expect(result.runs > 0 && result.slow == 0)
    }
}
