import Foundation
import TOMLKit

/// serve.toml: `tabshell serve`'s options in a file, each by its long name (`max-sessions = 64`,
/// `listen = "0.0.0.0:2222"`, `demo = true`; `max_sessions` is read the same), read with
/// config.toml's bounds and by line. Each entry becomes the option's words; the command line,
/// given after them, wins. What each value means is checked by the options themselves (the
/// caller parses each entry's words alone, so a wrong value is said at its line).
public enum ServeConfigFile {
    /// One setting: its option's long name, the words that give it, and its line.
    public struct Entry: Equatable, Sendable {
        public let name: String
        public let words: [String]
        public let line: Int

        /// `NAME = false`: `--no-NAME` for a flag that has it (`session-template = false`), nothing
        /// for one that has not (`demo = false`).
        public var isOff: Bool { words == ["--no-\(name)"] }

        public init(name: String, words: [String], line: Int) {
            self.name = name
            self.words = words
            self.line = line
        }
    }

    /// What reading a file found: its settings in the file's order, or its problems by line.
    public struct Read: Equatable, Sendable {
        public var entries: [Entry] = []
        public var problems: [ConfigProblem] = []

        /// Every setting's words, in order.
        public var words: [String] { entries.flatMap(\.words) }
    }

    /// What nothing serve.toml holds may set: the file itself, and asking for help.
    static let refused: Set<String> = ["config", "check", "help", "version", "h"]

    /// Reads the file at `path` (at most ``ConfigFile/maximumBytes``).
    public static func load(path: String) -> Read {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return Read(problems: [ConfigProblem(line: 0, "there is no such file; nothing is started.")])
        }
        guard !isDirectory.boolValue else { return Read(problems: [ConfigProblem(line: 0, "it is a folder, not a file; nothing is started.")]) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return Read(problems: [ConfigProblem(line: 0, "it cannot be read (check its permissions); nothing is started.")])
        }
        // An empty file sets nothing.
        guard let data = ConfigFile.contents(handle) else {
            return Read(problems: [ConfigProblem(line: 0, "the file cannot be read; nothing is started.")])
        }
        return parse(data)
    }

    public static func parse(_ data: Data) -> Read {
        switch ConfigFile.table(data, consequence: "nothing is started") {
        case .failure(let problem): return Read(problems: [problem])
        case .success(let (table, lines)): return read(table, lines: lines)
        }
    }

    static func read(_ table: TOMLTable, lines: SourceLines) -> Read {
        var read = Read()
        for key in lines.ordered(table.keys, under: []) {
            guard let value = table[key] else { continue }
            let line = lines.line(of: [key])
            let name = key.replacingOccurrences(of: "_", with: "-")
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }), !name.hasPrefix("-") else {
                read.problems.append(ConfigProblem(line: line, "`\(Printable.text(key))` is not an option of tabshell serve (see tabshell serve --help)."))
                continue
            }
            guard !refused.contains(name) else {
                read.problems.append(ConfigProblem(line: line, "`\(name)` cannot be set in the file; give it on the command line."))
                continue
            }
            switch words(for: name, value) {
            case .success(let words): read.entries.append(Entry(name: name, words: words, line: line))
            case .failure(let refusal): read.problems.append(ConfigProblem(line: line, refusal.sentence))
            }
        }
        return read
    }

    struct Refusal: Error {
        let sentence: String
    }

    /// A value as the option's words: a string or a number as `--name=VALUE`, true as the flag,
    /// false as `--no-name` (which the reader drops for a flag without it: not given), an array
    /// as the option once per element.
    static func words(for name: String, _ value: TOMLValueConvertible) -> Result<[String], Refusal> {
        switch value.type {
        case .bool:
            return .success(value.bool == true ? ["--\(name)"] : ["--no-\(name)"])
        case .string:
            return .success(["--\(name)=\(value.string ?? "")"])
        case .int:
            return .success(["--\(name)=\(value.int ?? 0)"])
        case .double:
            return .success(["--\(name)=\(value.double ?? 0)"])
        case .array:
            var words: [String] = []
            for element in value.array ?? [] {
                guard case .success(let more) = Self.words(for: name, element), element.type != .array else {
                    return .failure(Refusal(sentence: "`\(name)` takes strings or numbers, not nested lists or tables."))
                }
                words += more
            }
            return .success(words)
        default:
            return .failure(Refusal(sentence: "`\(name)` takes a string, a number or true/false, not a table or a date."))
        }
    }
}
