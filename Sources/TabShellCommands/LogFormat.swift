import ArgumentParser
import Foundation

/// How `tabshell serve` writes its log (`--log-format`): `text`, the lines people read
/// (`2026-11-29T09:40:00Z info [412] connected address=… connection=3`), or `json`, one object a
/// line for a log shipper (``JSONLogLine``). Both are read by the fail2ban filter the package
/// ships (packaging/fail2ban).
///
/// A served session writes its own lines into the same file: the server hands its format to
/// the session in ``environmentVariable``, which every command's log (``CommandLog``) follows.
public enum LogFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case text, json

    /// `TABSHELL_LOG_FORMAT=json`: the format a session's log is written in (serve sets it).
    public static let environmentVariable = "TABSHELL_LOG_FORMAT"

    /// The format `environment` asks for; text unless it says json.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self = environment[Self.environmentVariable] == Self.json.rawValue ? .json : .text
    }

    /// What a session's environment carries for it: nothing for text, the default.
    public var sessionEnvironment: [String: String] {
        self == .json ? [Self.environmentVariable: rawValue] : [:]
    }
}
