import Foundation

/// libpq's password file (`~/.pgpass`, or the file `PGPASSFILE` names): one
/// `hostname:port:database:username:password` per line, `*` matching anything in the first
/// four fields, `\:` and `\\` standing for `:` and `\`, lines starting with `#` ignored. The
/// first line that matches gives the password.
///
/// As libpq does, the file is ignored (with a warning) when it is not a regular file or when
/// its group or others may read or write it; a missing file is no warning.
struct PostgresPassFile {
    /// Where the file is.
    let path: String

    /// The file `environment` points at: `PGPASSFILE`, else `$HOME/.pgpass` (the account's
    /// home when `HOME` is unset); nil when neither is known.
    static func location(environment: [String: String]) -> String? {
        if let file = environment["PGPASSFILE"], !file.isEmpty { return file }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.pgpass" }
        let home = NSHomeDirectory()
        return home.isEmpty ? nil : home + "/.pgpass"
    }

    /// What looking up a password found.
    struct Lookup: Equatable {
        var password: String?
        /// Sentences for the log: the file was ignored, and why.
        var warnings: [String]
    }

    /// The password of the first line matching `host`, `port`, `database` and `user`.
    /// `host` is the server's name as in the URL, or `localhost` for a socket folder (libpq
    /// matches a socket connection against `localhost`).
    func password(host: String, port: Int, database: String, user: String) -> Lookup {
        var info = stat()
        guard stat(path, &info) == 0 else { return Lookup(password: nil, warnings: []) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return Lookup(password: nil, warnings: ["The password file \(path) is not a plain file; it was ignored."])
        }
        if info.st_mode & (S_IRWXG | S_IRWXO) != 0 {
            return Lookup(
                password: nil,
                warnings: [
                    "The password file \(path) can be read or written by others (mode \(String(info.st_mode & 0o777, radix: 8))); "
                        + "it was ignored. Run chmod 600 \(path)."
                ])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return Lookup(password: nil, warnings: ["The password file \(path) cannot be read; it was ignored."])
        }
        let wanted = [host, String(port), database, user]
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            if line.hasPrefix("#") { continue }
            let fields = Self.fields(of: line)
            guard fields.count >= 5 else { continue }
            let matches = zip(fields.prefix(4), wanted).allSatisfy { field, value in field == "*" || field == value }
            if matches {
                return Lookup(password: fields[4], warnings: [])
            }
        }
        return Lookup(password: nil, warnings: [])
    }

    /// The fields of one line: split at unescaped `:`, with `\x` standing for `x`. The
    /// password is the rest of the line after the fourth `:` (colons in it escaped or not).
    static func fields(of line: Substring) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":", fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}
