import TOMLKit
import TabShell

/// Reads a parsed TOML table into a `Configuration`, keeping every wrong entry's default and
/// saying what was wrong with it, by line.
struct ConfigReader {
    let lines: SourceLines
    private(set) var problems: [ConfigProblem] = []

    init(lines: SourceLines) { self.lines = lines }

    /// The top-level settings config.toml knows, in the default file's order.
    static let settingNames = ["theme", "screen_reader", "keys"]

    mutating func read(_ table: TOMLTable) -> Configuration {
        var options = ConfigOptions()
        for name in ordered(table.keys, under: []) {
            guard let value = table[name] else { continue }
            let line = lines.line(of: [name])
            switch name {
            case "theme":
                guard let text = value.string else {
                    problem(line, "`theme` takes a string: one of \(Self.themeList).")
                    continue
                }
                guard let theme = ThemeChoice(rawValue: text) else {
                    problem(line, "unknown theme \"\(Printable.text(text))\": use one of \(Self.themeList).")
                    continue
                }
                options.theme = theme
            case "screen_reader":
                guard let flag = value.bool, value.type == .bool else {
                    problem(line, "`screen_reader` takes true or false.")
                    continue
                }
                options.screenReader = flag
            case "keys":
                guard value.type == .table, let keys = value.table else {
                    problem(line, "`keys` must be a table: [keys] and lines like create = [\"c\"].")
                    continue
                }
                readKeys(keys)
            default:
                problem(line, "unknown setting `\(Printable.text(name))`: the settings are theme, screen_reader and [keys].")
            }
        }
        return Configuration(options: options, problems: sortedProblems)
    }

    static var themeList: String { ThemeChoice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") }

    /// `[keys]`: filled in by the key-rebinding reader.
    mutating func readKeys(_ table: TOMLTable) {}

    /// Names in the order the file writes them (TOMLKit's tables are sorted by name).
    func ordered(_ names: [String], under path: [String]) -> [String] {
        names.sorted { (lines.line(of: path + [$0]), $0) < (lines.line(of: path + [$1]), $1) }
    }

    mutating func problem(_ line: Int, _ message: String) {
        problems.append(ConfigProblem(line: line, message))
    }

    /// By line; past `ConfigFile.maximumProblems`, one last line counts the rest.
    var sortedProblems: [ConfigProblem] {
        let sorted = problems.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
        guard sorted.count > ConfigFile.maximumProblems else { return sorted }
        let kept = Array(sorted.prefix(ConfigFile.maximumProblems))
        return kept + [ConfigProblem(line: 0, "\(sorted.count - kept.count) more problems not shown.")]
    }
}
