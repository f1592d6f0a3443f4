import Domain
import TabShell

/// What config.toml says, checked: the options (`theme`, `screen_reader`) and, for each problem
/// found, a `ConfigProblem`; every wrong entry keeps its default.
public struct Configuration: Sendable {
    public var options = ConfigOptions.defaults
    /// `[keys]`: the keys in place of the table's defaults, for `AppState.keyOverrides`.
    public var keyOverrides = KeyOverrides.none
    public var problems: [ConfigProblem] = []

    /// `theme`.
    public var theme: Theme { options.theme }
    /// `screen_reader`.
    public var screenReader: Bool { options.screenReader }

    /// No file: every default.
    public static let defaults = Configuration()
}

/// One thing wrong in config.toml, at a line (1-based; 0 when no line can be named).
public struct ConfigProblem: Equatable, Sendable {
    public let line: Int
    public let message: String

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    /// `config.toml:LINE: sentence`.
    public var description: String {
        line > 0 ? "config.toml:\(line): \(message)" : "config.toml: \(message)"
    }
}
