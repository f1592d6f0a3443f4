import Crypto
import Foundation
import NIOSSH
import TestSupport
import Testing

@testable import SSHServer

/// Everything the server parses from a client or a file, fed random and mutated input from a
/// seeded generator (Support/Fuzz.swift): it never crashes, never accepts a NUL or a
/// control where one is refused, says back only printable text, and takes bounded time. A few
/// seconds each in `make test`; `make fuzz` runs longer (TABSHELL_FUZZ_SECONDS, _COUNT, _SEED).
@Suite(.tags(.stress)) struct FuzzTests {
    static func printable(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: ClientText.isUnsafe)
    }

    @Test func authorizedKeysLines() {
        let key = String(openSSHPublicKey: NIOSSHPrivateKey(ed25519Key: .init()).publicKey)
        let valid = ["\(key) Ana Lopez", "restrict,no-pty \(key) ben", "# comment", "", "ecdsa-sha2-nistp256 AAAA x"]
        var fuzz = Fuzz("authorized_keys")
        let (runs, slow) = fuzz.run { fuzz in
            let lines = (0..<fuzz.below(6) + 1).map { _ in
                fuzz.below(2) == 0 ? fuzz.mutate(fuzz.pick(valid)) : fuzz.text()
            }
            let (keys, problems) = AuthorizedKeysParser.parse(lines.joined(separator: "\n"))
            for problem in problems {
                // A problem is logged and printed at start: nothing from the file acts on a terminal.
                #expect(Self.printable(problem.sentence), "seed \(fuzz.seed): \(problem.sentence.debugDescription)")
                #expect(problem.line >= 1 && problem.line <= lines.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false).count)
            }
            for accepted in keys {
                #expect(!ClientText.holdsNUL(accepted.name), "seed \(fuzz.seed): a NUL in a name")
            }
        }
        #expect(slow == 0 && runs > 0, "seed \(fuzz.seed): \(slow) slow inputs of \(runs)")
    }

    @Test func commandWords() {
        let valid = ["history export --format csv", "inbox add --title 'two words'", "photos add \"shelf 1.jpg\"", "a\\ b 'c'\"d\""]
        var fuzz = Fuzz("shell words")
        let (runs, slow) = fuzz.run { fuzz in
            let line = fuzz.below(2) == 0 ? fuzz.mutate(fuzz.pick(valid)) : fuzz.text()
            guard let words = ShellWords.split(line) else { return }
            // Words are made of the line's own characters: nothing is expanded or invented.
            let given = Set(line.unicodeScalars)
            for word in words {
                #expect(word.unicodeScalars.allSatisfy(given.contains), "seed \(fuzz.seed): \(line.debugDescription)")
            }
            #expect(words.joined().unicodeScalars.count <= line.unicodeScalars.count)
        }
        #expect(slow == 0 && runs > 0, "seed \(fuzz.seed): \(slow) slow inputs of \(runs)")
    }

    @Test func environmentValuesAndTerminalTypes() {
        var fuzz = Fuzz("environment")
        let (runs, slow) = fuzz.run { fuzz in
            let name = fuzz.below(2) == 0 ? fuzz.pick(["LANG", "LC_ALL", "LC_CTYPE", "LC_", "PATH", "LD_PRELOAD"]) : fuzz.text(maxWords: 2)
            let value = fuzz.below(2) == 0 ? fuzz.mutate("de_DE.UTF-8") : fuzz.text()
            if ClientEnvironment.accepts(name: name, value: value) {
                #expect(name == "LANG" || name.hasPrefix("LC_") || name == ClientEnvironment.screenReader, "seed \(fuzz.seed): \(name.debugDescription)")
                #expect(value.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) }, "seed \(fuzz.seed): \(value.debugDescription)")
                #expect(value.utf8.count <= ClientEnvironment.maximumValueLength)
            }
            let term = ClientEnvironment.sanitizedTerm(fuzz.below(2) == 0 ? fuzz.mutate("xterm-256color") : fuzz.text())
            #expect(!term.isEmpty && term.count <= 64, "seed \(fuzz.seed)")
            #expect(
                term.unicodeScalars.allSatisfy { $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0) || "._+-".unicodeScalars.contains($0) },
                "seed \(fuzz.seed): \(term.debugDescription)")
        }
        #expect(slow == 0 && runs > 0, "seed \(fuzz.seed): \(slow) slow inputs of \(runs)")
    }

    @Test func clientTextSaidBack() {
        var fuzz = Fuzz("client text")
        let (runs, slow) = fuzz.run { fuzz in
            let text = fuzz.text(maxWords: 40)
            let limit = fuzz.below(300) + 1
            let said = ClientText.printable(text, limit: limit)
            #expect(Self.printable(said), "seed \(fuzz.seed): \(text.debugDescription)")
            #expect(said.count <= limit + 1, "seed \(fuzz.seed)")
        }
        #expect(slow == 0 && runs > 0, "seed \(fuzz.seed): \(slow) slow inputs of \(runs)")
    }

    /// Window sizes from pty-req and window-change: whatever a client asks, a session gets a
    /// size within 1…1000 columns and 1…500 rows (0 is 80x24), and the kernel is given the same.
    @Test func terminalSizes() {
        var fuzz = Fuzz("terminal sizes")
        let (runs, slow) = fuzz.run { fuzz in
            func value(_ fuzz: inout Fuzz) -> Int {
                fuzz.pick([Int(Int32.min), -1, 0, 1, 500, 501, 1000, 1001, 65535, 65536, Int(UInt32.max), Int.max, fuzz.below(1 << 20) - (1 << 19)])
            }
            let (asked, askedRows) = (value(&fuzz), value(&fuzz))
            let size = SSHServerLimits.terminalSize(columns: asked, rows: askedRows)
            #expect((1...SSHServerLimits.maxTerminalColumns).contains(size.columns), "seed \(fuzz.seed): \(asked) became \(size.columns)")
            #expect((1...SSHServerLimits.maxTerminalRows).contains(size.rows), "seed \(fuzz.seed): \(askedRows) became \(size.rows)")
            #expect(Int(UInt16(clamping: size.columns)) == size.columns, "seed \(fuzz.seed)")
        }
        #expect(slow == 0 && runs > 0, "seed \(fuzz.seed): \(slow) slow inputs of \(runs)")
    }
}
