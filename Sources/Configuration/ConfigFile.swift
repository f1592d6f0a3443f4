import Domain
import Foundation
import TOMLKit
import TabShell

/// config.toml: where it is, and reading it into a `Configuration`. Nothing here stops the app:
/// a file that cannot be read or parsed gives every default and says why, by line.
public enum ConfigFile {
    /// The most bytes read; a longer file is refused whole (its entries keep their defaults).
    public static let maximumBytes = 1 << 20
    /// The most lines a file may have.
    public static let maximumLines = 20_000
    /// The most problems kept (the first ones by line); the rest are counted in one last line.
    public static let maximumProblems = 50

    /// `$XDG_CONFIG_HOME/tabshell/config.toml`, else `~/.config/tabshell/config.toml`; an empty
    /// or relative XDG_CONFIG_HOME is ignored, as the XDG Base Directory specification says.
    /// nil when neither it nor HOME is set.
    public static func path(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return (xdg as NSString).appendingPathComponent("tabshell/config.toml")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return (home as NSString).appendingPathComponent(".config/tabshell/config.toml")
    }

    /// What reading the file found.
    public enum Loaded: Sendable {
        /// No file there: every default.
        case absent(path: String)
        case read(path: String, Configuration)
        /// No path at all (no HOME, no XDG_CONFIG_HOME): every default.
        case noPath

        public var configuration: Configuration {
            if case let .read(_, configuration) = self { return configuration }
            return .defaults
        }
    }

    /// Reads the file at `path(environment:)`, bounded by `maximumBytes`.
    public static func load(environment: [String: String]) -> Loaded {
        guard let path = path(environment: environment) else { return .noPath }
        return load(path: path)
    }

    public static func load(path: String) -> Loaded {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .absent(path: path) }
            let what = isDirectory.boolValue ? "is a folder, not a file" : "cannot be read (check its permissions)"
            return .read(path: path, Configuration(problems: [ConfigProblem(line: 0, "the file \(what); every setting keeps its default.")]))
        }
        guard let data = contents(handle) else {
            return .read(path: path, Configuration(problems: [ConfigProblem(line: 0, "the file cannot be read; every setting keeps its default.")]))
        }
        return .read(path: path, parse(data))
    }

    /// What `handle` reads, at most one byte past `maximumBytes` (so a longer file is told by
    /// its size), then closed; nil when reading fails. An empty file reads as no bytes
    /// (FileHandle says nil at its end).
    static func contents(_ handle: FileHandle) -> Data? {
        defer { try? handle.close() }
        return try? handle.read(upToCount: maximumBytes + 1) ?? Data()
    }

    /// The configuration `data` holds; every problem keeps its entry's default.
    public static func parse(_ data: Data) -> Configuration {
        switch table(data, consequence: "every setting keeps its default") {
        case .failure(let problem): return Configuration(problems: [problem])
        case .success(let (table, lines)):
            var reader = ConfigReader(lines: lines)
            return reader.read(table)
        }
    }

    /// The TOML table `data` holds and where each of its keys is written, or the one problem
    /// that stops the whole file (said with `consequence`): its size, its encoding, its shape
    /// (depth and line length, before the parser sees it: the parser recurses once per level), a
    /// NUL byte, its line count, or its syntax.
    static func table(_ data: Data, consequence: String) -> Result<(TOMLTable, SourceLines), ConfigProblem> {
        guard data.count <= maximumBytes else {
            return .failure(ConfigProblem(line: 0, "the file is larger than \(maximumBytes / 1024) KiB; \(consequence)."))
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            return .failure(ConfigProblem(line: firstInvalidLine(data), "the file is not UTF-8 text; \(consequence)."))
        }
        if let problem = ConfigShape.problem(in: text) {
            return .failure(ConfigProblem(line: problem.line, problem.message.replacingOccurrences(of: "every setting keeps its default", with: consequence)))
        }
        let lines = SourceLines(text)
        if let nul = lines.firstLine(containing: "\u{0}") {
            return .failure(ConfigProblem(line: nul, "a NUL byte is not allowed in TOML; \(consequence)."))
        }
        guard lines.count <= maximumLines else {
            return .failure(ConfigProblem(line: 0, "the file has more than \(maximumLines) lines; \(consequence)."))
        }
        do {
            return .success((try TOMLTable(string: text), lines))
        } catch let error as TOMLParseError {
            let sentence = Printable.sentence(error.description)
            return .failure(ConfigProblem(line: error.source.begin.line, "not valid TOML: \(sentence); \(consequence)."))
        } catch {
            return .failure(ConfigProblem(line: 0, "not valid TOML; \(consequence)."))
        }
    }

    /// The line of the first byte that is not part of valid UTF-8.
    private static func firstInvalidLine(_ data: Data) -> Int {
        var line = 1
        var start = data.startIndex
        while start < data.endIndex {
            let end = data[start...].firstIndex(of: 0x0A) ?? data.endIndex
            if String(validating: data[start..<end], as: UTF8.self) == nil { return line }
            line += 1
            start = end < data.endIndex ? data.index(after: end) : end
        }
        return line
    }
}

/// Text from the file made fit to echo: printable (the `Sanitizer`), one line, and short.
enum Printable {
    static let maximumColumns = 60

    static func text(_ text: String) -> String {
        let line = Sanitizer(unicode: false).line(text)
        guard line.count > maximumColumns else { return line }
        return String(line.prefix(maximumColumns - 3)) + "..."
    }

    /// A parser's message as the end of a sentence: printable, no final full stop.
    static func sentence(_ text: String) -> String {
        var line = Sanitizer(unicode: false).line(text).trimmingCharacters(in: .whitespaces)
        while line.hasSuffix(".") { line.removeLast() }
        if line.count > 200 { line = String(line.prefix(197)) + "..." }
        return line.isEmpty ? "the parser gave no reason" : line
    }
}

/// A problem that stops a whole file, as a failure.
extension ConfigProblem: Error {}
