import ArgumentParser
import Configuration
import Domain
import TabShell
import TabShellCommands

/// `tabshell config …`: config.toml's path, a check of it, and a complete default file.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "The configuration file: its path, a check of it, a complete default one.",
        discussion: """
            tabshell reads $XDG_CONFIG_HOME/tabshell/config.toml (else ~/.config/tabshell/config.toml) at start: \
            theme, screen_reader and [keys], which rebinds actions (docs/keys.md names them). A wrong entry keeps \
            its default and the app says what was wrong, once, with its line.
            """,
        subcommands: [ConfigPathCommand.self, ConfigCheckCommand.self, ConfigDefaultCommand.self]
    )
}

/// `tabshell config path`
struct ConfigPathCommand: CommandBody {
    static let configuration = CommandConfiguration(
        commandName: "path", abstract: "Print the configuration file's path (whether it exists or not).")

    func execute(_ context: CommandContext) throws {
        guard let path = ConfigFile.path(environment: context.environment) else {
            throw Failure("No configuration path: neither XDG_CONFIG_HOME nor HOME is set.")
        }
        try finishing(context, writing: Sanitizer(unicode: context.localeIsUTF8).line(path) + "\n")
    }
}

/// `tabshell config check`
struct ConfigCheckCommand: CommandBody {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the configuration file: each problem as config.toml:LINE: sentence on standard error.",
        discussion: "Exits 0 when the file is good or absent, 1 when it has a problem (the app would keep those entries' defaults)."
    )

    func execute(_ context: CommandContext) throws {
        let sanitizer = Sanitizer(unicode: context.localeIsUTF8)
        switch ConfigFile.load(environment: context.environment) {
        case .noPath:
            try finishing(context, writing: "No configuration file (neither XDG_CONFIG_HOME nor HOME is set): every setting is at its default.\n")
        case let .absent(path):
            try finishing(context, writing: "No configuration file at \(sanitizer.line(path)): every setting is at its default.\n")
        case let .read(path, configuration):
            guard configuration.problems.isEmpty else {
                context.warn(configuration.problems.map { sanitizer.line($0.description) }.joined(separator: "\n"))
                throw ExitCode(1)
            }
            try finishing(context, writing: "\(sanitizer.line(path)) is good.\n")
        }
    }
}

/// `tabshell config default`
struct ConfigDefaultCommand: CommandBody {
    static let configuration = CommandConfiguration(
        commandName: "default",
        abstract: "Print a complete, commented configuration file: every option and every key binding at its default.",
        discussion: "tabshell config default > \"$(tabshell config path)\" starts a file to edit."
    )

    func execute(_ context: CommandContext) throws {
        try finishing(context, writing: DefaultFile.text)
    }
}
