import Domain
import Foundation
import Presenting

/// The commands a person may run over `ssh host COMMAND` against `tabshell serve`, checked word
/// by word before anything runs. Each is the tabshell subcommand of the same name, run as that
/// person: same output, same exit status as locally. Options that would reach outside the
/// person's own data (`--db`, `--as`, `--output`, `--log-level`, …) are never accepted from the
/// client; the server adds the ones it decides.
struct AllowedCommand: Equatable {
    /// The subcommand's words (`["history", "list"]`).
    var subcommand: [String]
    /// The client's options and arguments, each one checked.
    var arguments: [String]

    /// One line for refusals and help.
    static let summary =
        "inbox add|list|import -|reopen ID|remove ID, history list|export --format json|csv, photos add NAME|list|remove NAME, present [--watchers NAME,NAME], watch CODE, mcp [CODE]"

    /// What a command may take after its subcommand words.
    private enum Grammar {
        /// Options with a value, options without one, and how many plain arguments.
        case options(valued: Set<String>, flags: Set<String>, arguments: ClosedRange<Int>)
        /// Exactly these words.
        case exactly([String])
    }

    private static let table: [(words: [String], grammar: Grammar)] = [
        (["inbox", "add"], .options(valued: ["--title", "--body", "--kind"], flags: [], arguments: 0...0)),
        (["inbox", "list"], .options(valued: ["--limit"], flags: ["--json"], arguments: 0...0)),
        // The agents' door (docs/agents.md): an MCP server on the channel's pipes, as the key's
        // person; in the demo onto the visitor's data whose session shows the agent code given.
        (["mcp"], .options(valued: [], flags: [], arguments: 0...1)),
        (["inbox", "import"], .exactly(["-"])),
        (["inbox", "reopen"], .options(valued: [], flags: [], arguments: 1...1)),
        (["inbox", "remove"], .options(valued: [], flags: [], arguments: 1...1)),
        (["history", "list"], .options(valued: ["--limit"], flags: ["--json"], arguments: 0...0)),
        (["history", "export"], .options(valued: ["--format"], flags: [], arguments: 0...0)),
        (["photos", "add"], .options(valued: [], flags: [], arguments: 1...1)),
        (["photos", "list"], .options(valued: [], flags: [], arguments: 0...0)),
        (["photos", "remove"], .options(valued: [], flags: [], arguments: 1...1)),
        // The app, shared; and following a shared session by its code.
        (["present"], .options(valued: ["--watchers"], flags: [], arguments: 0...0)),
        (["watch"], .options(valued: [], flags: [], arguments: 1...1)),
    ]

    /// The allowed command `words` ask for, or a sentence saying why not.
    static func parse(_ words: [String]) -> Result<AllowedCommand, Refusal> {
        let shown = words.joined(separator: " ")
        // C strings end at a NUL: the command would be given a shorter word than the one checked.
        if words.contains(where: { $0.utf8.contains(0) }) {
            return .failure(Refusal("`\(cut(shown))` holds a NUL byte, which no command can be given; nothing was run."))
        }
        guard let entry = table.first(where: { words.starts(with: $0.words) }) else {
            return .failure(Refusal("`\(cut(shown))` is not an allowed command; allowed: \(summary)."))
        }
        let rest = Array(words.dropFirst(entry.words.count))
        switch entry.grammar {
        case let .exactly(expected):
            guard rest == expected else {
                return .failure(Refusal("`\(cut(shown))` is not allowed; use: \((entry.words + expected).joined(separator: " "))."))
            }
        case let .options(valued, flags, arguments):
            var plain = 0
            var index = 0
            while index < rest.count {
                let word = rest[index]
                let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
                if valued.contains(name) {
                    if !word.contains("=") {
                        guard index + 1 < rest.count else {
                            return .failure(Refusal("\(name) needs a value."))
                        }
                        // The command's own parser would read a word like `--db` as an option, not
                        // as this value: such a value is given joined (`--title=-x`) or not at all.
                        guard !rest[index + 1].hasPrefix("-") else {
                            return .failure(Refusal("\(name)'s value \(cut(rest[index + 1])) starts with -; write \(name)=VALUE."))
                        }
                        index += 1
                    }
                } else if flags.contains(word) {
                    // fine
                } else if word.hasPrefix("-") {
                    return .failure(Refusal("\(cut(word)) is not an option the server accepts for \(entry.words.joined(separator: " "))."))
                } else {
                    plain += 1
                }
                index += 1
            }
            guard arguments.contains(plain) else {
                return .failure(Refusal("`\(cut(shown))` is not allowed; allowed: \(summary)."))
            }
        }
        if entry.words == ["watch"] || entry.words == ["mcp"], let code = rest.first, WatchCode(code) == nil {
            let (kind, shown) = entry.words == ["watch"] ? ("a watch code", "the presenter's screen") : ("an agent code", "the heading of a demo session")
            return .failure(Refusal("`\(cut(code))` is not \(kind): it is three groups of four letters and digits, as \(shown) shows it."))
        }
        return .success(AllowedCommand(subcommand: entry.words, arguments: rest))
    }

    var isPhotos: Bool { subcommand.first == "photos" }
    /// `mcp`: an agent's MCP server, filing as the key's person.
    var isAgentDoor: Bool { subcommand == ["mcp"] }
    /// `mcp CODE` in the demo: the agent code a visitor's session shows (Presenting's `WatchCode` shape).
    var agentCode: String? { isAgentDoor ? arguments.first : nil }
    /// `present`: the app, shared with watchers.
    var isPresent: Bool { subcommand == ["present"] }
    /// `watch CODE`: following a presentation; the code is checked (Presenting's `WatchCode`).
    var watchCode: String? { subcommand == ["watch"] ? arguments.first : nil }

    /// `present --watchers NAME,NAME`: only these people may watch (nil: anyone with the code).
    var presentWatchers: Set<String>? {
        guard isPresent else { return nil }
        var names: [String]?
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--watchers", index + 1 < arguments.count {
                names = (names ?? []) + [arguments[index + 1]]
                index += 1
            } else if word.hasPrefix("--watchers=") {
                names = (names ?? []) + [String(word.dropFirst("--watchers=".count))]
            }
            index += 1
        }
        return names.map { Set($0.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }) }
    }

    /// What the client sent, quoted back: printable (no escape, C1 control or bidi mark reaches
    /// their terminal or the log) and at most 80 characters.
    private static func cut(_ text: String) -> String {
        let printable = Sanitizer(unicode: true).line(text)
        return printable.count > 80 ? String(printable.prefix(80)) + "…" : printable
    }

    /// Why a command is not run: one sentence for the client.
    struct Refusal: Error, Equatable {
        let sentence: String
        init(_ sentence: String) { self.sentence = sentence }
    }
}
