import Foundation
import SSHServer
import TestSupport
import Testing

@testable import ServePolicy

/// `ssh host COMMAND`'s words as AllowedCommand reads them, and the launcher's answer to any
/// login name, fed random and mutated words from a seeded generator (Fuzz.swift):
/// no NUL is ever accepted, every refusal is one printable sentence, and each answer is quick.
@Suite(.tags(.stress)) struct ServeFuzzTests {
    static func printable(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: ClientText.isUnsafe) && !text.contains("\n")
    }

    @Test func allowedCommandWords() {
        let valid = [
            ["inbox", "add", "--title", "x"], ["inbox", "list", "--limit", "5", "--json"], ["inbox", "import", "-"],
            ["history", "export", "--format=csv"], ["photos", "add", "shelf.jpg"], ["photos", "remove", "a b.png"],
        ]
        var fuzz = Fuzz("allowed command")
        let (runs, slow) = fuzz.run { fuzz in
            var words = fuzz.pick(valid)
            for _ in 0..<fuzz.below(3) + 1 {
                let at = fuzz.below(words.count + 1)
                switch fuzz.below(3) {
                case 0: words.insert(fuzz.text(maxWords: 3), at: at)
                case 1 where at < words.count: words[at] = fuzz.mutate(words[at])
                default: if at < words.count { words.remove(at: at) }
                }
            }
            switch AllowedCommand.parse(words) {
            case .success(let command):
                #expect(!(command.subcommand + command.arguments).contains(where: ClientText.holdsNUL), "seed \(fuzz.seed): \(words)")
                #expect(command.subcommand + command.arguments == words, "seed \(fuzz.seed): words are passed on as given")
                for forbidden in ["--db", "--as", "--output", "--log-level", "--session-folder"] {
                    #expect(!command.arguments.contains { $0 == forbidden || $0.hasPrefix(forbidden + "=") }, "seed \(fuzz.seed): \(words)")
                }
            case .failure(let refusal):
                #expect(Self.printable(refusal.sentence), "seed \(fuzz.seed): \(refusal.sentence.debugDescription)")
                #expect(refusal.sentence.count < 400, "seed \(fuzz.seed)")
            }
        }
        #expect(slow == 0 && runs > 0, "seed \(fuzz.seed): \(slow) slow inputs of \(runs)")
    }
}
