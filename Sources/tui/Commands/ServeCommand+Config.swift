import ArgumentParser
import Configuration
import Foundation
import Logging
import TabShellCommands

/// serve.toml (`serve --config FILE`): its settings become serve's options, given before the
/// command line's own (which win); `--check` reports every problem and starts nothing; SIGHUP
/// reads it again, and a file with problems keeps the running configuration.
extension ServeCommand {
    /// The arguments `given` (after the program's name) with serve.toml's settings put in front
    /// of serve's own; unchanged for any other command or without `--config`. Throws every
    /// problem of the file as `FILE:LINE: sentence`, one a line.
    static func expanding(_ given: [String]) throws -> [String] {
        guard given.first == configuration.commandName, let path = configPath(in: Array(given.dropFirst())) else { return given }
        let read = readConfig(path)
        guard read.problems.isEmpty else { throw Failure(problemText(read.problems, path: path)) }
        return [given[0]] + read.words + given.dropFirst()
    }

    /// `--config FILE` or `--config=FILE` among serve's arguments (the last one given).
    static func configPath(in arguments: [String]) -> String? {
        var found: String?
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" { break }
            if word == "--config", index + 1 < arguments.count {
                found = arguments[index + 1]
                index += 1
            } else if word.hasPrefix("--config=") {
                found = String(word.dropFirst("--config=".count))
            }
            index += 1
        }
        return found.map { ($0 as NSString).expandingTildeInPath }
    }

    /// The file's settings, each one checked by serve's own options alone, so a wrong value is
    /// said at its line in the options' own sentence.
    static func readConfig(_ path: String) -> ServeConfigFile.Read {
        var read = ServeConfigFile.load(path: path)
        var checked: [ServeConfigFile.Entry] = []
        for entry in read.entries {
            // Who may log in is a choice every other option is checked beside.
            let beside: [String] =
                switch entry.name {
                case "demo", "authorized-keys": []
                case "db": ["--authorized-keys=/dev/null"]
                default: ["--demo"]
                }
            do {
                _ = try parse(beside + entry.words)
                checked.append(entry)
            } catch  where entry.isOff && (try? parse(beside + ["--\(entry.name)"])) != nil {
                // A flag without a --no- form (off unless given): false is the flag not given.
                checked.append(ServeConfigFile.Entry(name: entry.name, words: [], line: entry.line))
            } catch {
                read.problems.append(ConfigProblem(line: entry.line, optionSentence(for: error, name: entry.name)))
            }
        }
        read.entries = checked
        read.problems.sort { $0.line < $1.line }
        return read
    }

    /// An option's refusal as one sentence of the file: ArgumentParser's message without its
    /// "Error: " and usage lines, an unknown option named as a setting.
    static func optionSentence(for error: Error, name: String) -> String {
        let message = message(for: error).split(separator: "\n").first.map(String.init) ?? ""
        if message.contains("Unknown option") || message.contains("Unexpected argument") {
            return "`\(name)` is not an option of tabshell serve (tabshell serve --help lists them)."
        }
        let text = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
        return text.isEmpty ? "`\(name)` has a value serve does not take." : text
    }

    static func problemText(_ problems: [ConfigProblem], path: String) -> String {
        let name = (path as NSString).lastPathComponent
        return problems.prefix(ConfigFile.maximumProblems).map { $0.line > 0 ? "\(name):\($0.line): \($0.message)" : "\(name): \($0.message)" }.joined(separator: "\n")
    }

    /// `--check`: the options (the file's among them) parsed and checked already; what is left
    /// is what only the files can say: the authorized keys readable, the host key's folder there.
    func checkOnly() throws {
        var problems: [String] = []
        var notes: [String] = []
        if let keys = options.authorizedKeys.map({ ($0 as NSString).expandingTildeInPath }), !FileManager.default.isReadableFile(atPath: keys) {
            problems.append("--authorized-keys: \(keys) cannot be read.")
        }
        if let record, !FileManager.default.fileExists(atPath: (record as NSString).expandingTildeInPath) {
            notes.append("--record: \(record) does not exist yet; it is made (0700) at start.")
        }
        guard problems.isEmpty else { throw Failure((problems + notes).joined(separator: "\n")) }
        let source = config.map { " and \(($0 as NSString).lastPathComponent)" } ?? ""
        print((["tabshell serve's options\(source): no problems; nothing was started."] + notes).joined(separator: "\n"))
    }

    /// SIGHUP with `--config`: the file read again. A file with problems changes nothing (the log
    /// says each); otherwise what changed is named, and takes effect at the next start (the
    /// authorized keys, re-read on every SIGHUP, at once).
    static func reread(_ path: String, running: [ServeConfigFile.Entry], logger: Logger) {
        let path = (path as NSString).expandingTildeInPath
        let read = readConfig(path)
        guard read.problems.isEmpty else {
            logger.error(
                "\(problemText(read.problems, path: path).replacingOccurrences(of: "\n", with: "; ")) -- the running configuration is kept")
            return
        }
        let before = Dictionary(running.map { ($0.name, $0.words) }, uniquingKeysWith: { $1 })
        let after = Dictionary(read.entries.map { ($0.name, $0.words) }, uniquingKeysWith: { $1 })
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
        if changed.isEmpty {
            logger.info("\((path as NSString).lastPathComponent) read again on SIGHUP: unchanged")
        } else {
            logger.warning(
                "\((path as NSString).lastPathComponent) read again on SIGHUP: \(changed.joined(separator: ", ")) changed; they take effect at the next start")
        }
    }
}
