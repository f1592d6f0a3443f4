import Foundation
import Logging
import ServePolicy
import TabShellCommands

extension ServeCommand {
    /// The log file beside the database, in `--log-format` (text or JSON lines), plus a
    /// one-line-per-event summary on standard error when it is a terminal.
    func serverLogger(beside url: URL) -> Logger {
        let file = DatabaseOptions.logFile(beside: url)
        let level = options.database.logLevel
        let format = options.logFormat
        let summary = isatty(STDERR_FILENO) == 1
        var logger = Logger(label: "tabshell.serve") { _ in
            var handlers: [any LogHandler] = [FileLogHandler(url: file, level: level, format: format)]
            if summary { handlers.append(SummaryLogHandler()) }
            return MultiplexLogHandler(handlers)
        }
        logger.logLevel = level
        return logger
    }
}
