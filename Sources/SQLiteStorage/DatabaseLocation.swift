import Foundation
import Storage

extension AppDatabase {
    /// The file name of the database inside ``defaultDirectory(environment:)``.
    public static let defaultFileName = "tabshell.sqlite"

    /// The folder that holds tabshell's data: `$XDG_DATA_HOME/tabshell` when `XDG_DATA_HOME`
    /// is set to an absolute path, else `$HOME/.local/share/tabshell` (the account's home
    /// directory when `HOME` is unset or empty).
    public static func defaultDirectory(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("tabshell", isDirectory: true)
        }
        let home: URL
        if let value = environment["HOME"], !value.isEmpty {
            home = URL(fileURLWithPath: value, isDirectory: true)
        } else {
            home = FileManager.default.homeDirectoryForCurrentUser
        }
        return home.appendingPathComponent(".local/share/tabshell", isDirectory: true)
    }

    /// The database file tabshell uses unless told otherwise:
    /// ``defaultDirectory(environment:)`` + `tabshell.sqlite`.
    public static func defaultDatabaseURL(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        defaultDirectory(environment: environment).appendingPathComponent(defaultFileName, isDirectory: false)
    }
}
