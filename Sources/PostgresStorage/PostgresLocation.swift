import Foundation
import Storage

/// Where a PostgreSQL store is and how to log in: a `postgres://` or `postgresql://` URL with
/// libpq's meaning, defaults applied and the password found.
///
/// ```
/// postgres://ana@db.example.org/tabshell?sslmode=verify-full
/// postgresql://ana:s%40cret@[2001:db8::5]:6432/tabshell?connect_timeout=5
/// postgres:///tabshell?host=/var/run/postgresql          (a socket folder)
/// ```
///
/// - **Password**: the URL's, else `PGPASSWORD`, else the first matching line of the password
///   file (`~/.pgpass` or `PGPASSFILE`, libpq's format and permission rule); none is fine for
///   servers that trust or use peer authentication.
/// - **Defaults**: host — the socket folder `/var/run/postgresql` (Debian's); port 5432;
///   user — `USER` (or `LOGNAME`) of the environment; database — the user's name;
///   `sslmode=prefer`; `connect_timeout` 10 s.
/// - **Parameters** (the URL's query): `sslmode`, `sslrootcert`, `connect_timeout` (seconds;
///   0 waits as long as it takes), `application_name`, and libpq's `host`, `port`, `user`,
///   `dbname`, `password`, which override the URL's parts. Anything else is refused with a
///   sentence naming it, rather than silently ignored.
///
/// The password never appears in ``description``, ``debugDescription``, a `Mirror` (so not in
/// `dump` either) or any error sentence; ``password`` is the one way to read it.
public struct PostgresLocation: Equatable, Sendable {
    /// Where the server listens.
    public enum Endpoint: Equatable, Sendable {
        /// A TCP host (name or address, IPv6 without brackets) and port.
        case tcp(host: String, port: Int)
        /// A unix socket: the folder holding `.s.PGSQL.<port>`, and the port naming it.
        case socket(folder: String, port: Int)
    }

    /// Where the password came from.
    public enum PasswordSource: Equatable, Sendable {
        case url
        case environment
        case passwordFile(path: String)
        case none
    }

    /// The default port of PostgreSQL.
    public static let defaultPort = 5432
    /// The socket folder used when the URL names no host (Debian's, and libpq's as Debian builds it).
    public static let defaultSocketFolder = "/var/run/postgresql"
    /// How long connecting may take unless `connect_timeout` says otherwise, in seconds.
    public static let defaultConnectTimeout = 10
    /// What `connect_timeout=0` ("no limit") becomes: a day.
    static let unlimitedConnectTimeout = 86_400
    /// The parameters a URL may carry.
    public static let knownParameters = [
        "sslmode", "sslrootcert", "connect_timeout", "application_name", "host", "port", "user", "dbname", "password",
    ]

    public var endpoint: Endpoint
    public var user: String
    public var database: String
    public var sslMode: PostgresSSLMode
    /// Whom the `verify-ca` and `verify-full` modes trust.
    public var trustRoots: PostgresTrustRoots
    /// Seconds a connection attempt may take (at least 2, as libpq rounds up).
    public var connectTimeoutSeconds: Int
    public var applicationName: String?
    /// The password; never printed. Nil when none was found (the server may not ask).
    public var password: String?
    public var passwordSource: PasswordSource
    /// Sentences for the log about what was ignored while finding the password (a password
    /// file others can read…).
    public var warnings: [String]

    /// Parses `url` (see the type's documentation). `environment` gives `PGPASSWORD`,
    /// `PGPASSFILE`, `HOME` and `USER`.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(StorageError) {
        let url = try PostgresURL(parsing: text)
        var host = url.host
        var port = url.port
        var user = url.user
        var database = url.database
        var password = url.password
        var sslMode = PostgresSSLMode.prefer
        var rootCertificate: String?
        var timeout = Self.defaultConnectTimeout
        var applicationName: String?
        for (name, value) in url.parameters {
            switch name {
            case "sslmode":
                guard let mode = PostgresSSLMode(rawValue: value) else {
                    throw .invalidInput(
                        "sslmode “\(value.prefix(20))” is not one of \(PostgresSSLMode.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                sslMode = mode
            case "sslrootcert": rootCertificate = value
            case "connect_timeout":
                guard let seconds = Int(value), seconds >= 0, seconds <= Self.unlimitedConnectTimeout else {
                    throw .invalidInput("connect_timeout is a number of seconds from 0 to \(Self.unlimitedConnectTimeout).")
                }
                timeout = seconds == 0 ? Self.unlimitedConnectTimeout : max(seconds, 2)
            case "application_name": applicationName = value
            case "host": host = value.isEmpty ? nil : value
            case "port": port = try PostgresURL.port(value)
            case "user": user = value.isEmpty ? nil : value
            case "dbname": database = value.isEmpty ? nil : value
            case "password": password = value
            default:
                throw .invalidInput(
                    "The PostgreSQL URL parameter “\(name.prefix(40))” is not one tabshell knows (it knows "
                        + Self.knownParameters.joined(separator: ", ") + ").")
            }
        }

        let resolvedPort = port ?? Self.defaultPort
        if let host, host.hasPrefix("/") {
            endpoint = .socket(folder: host, port: resolvedPort)
        } else if let host {
            endpoint = .tcp(host: host, port: resolvedPort)
        } else {
            endpoint = .socket(folder: Self.defaultSocketFolder, port: resolvedPort)
        }
        guard let resolvedUser = user ?? environment["USER"].flatMap({ $0.isEmpty ? nil : $0 }) ?? environment["LOGNAME"],
            !resolvedUser.isEmpty
        else {
            throw .invalidInput("The PostgreSQL URL names no user, and USER is not set; write postgres://USER@host/database.")
        }
        self.user = resolvedUser
        self.database = database ?? resolvedUser
        self.sslMode = sslMode
        self.connectTimeoutSeconds = timeout
        self.applicationName = applicationName
        if case .socket = endpoint, sslMode == .require || sslMode.verifiesCertificate {
            throw .invalidInput("sslmode=\(sslMode.rawValue) needs a TCP host; a unix socket has no TLS.")
        }

        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        switch rootCertificate {
        case "system"?: trustRoots = .system
        case let path?: trustRoots = .file(path)
        case nil:
            let defaultFile = home + "/.postgresql/root.crt"
            trustRoots = FileManager.default.fileExists(atPath: defaultFile) ? .file(defaultFile) : .system
        }

        warnings = []
        if let password, !password.isEmpty {
            self.password = password
            passwordSource = .url
        } else if let fromEnvironment = environment["PGPASSWORD"], !fromEnvironment.isEmpty {
            self.password = fromEnvironment
            passwordSource = .environment
        } else if let path = PostgresPassFile.location(environment: environment) {
            let passHost: String
            switch endpoint {
            case let .tcp(host, _): passHost = host
            case .socket: passHost = "localhost"
            }
            let lookup = PostgresPassFile(path: path).password(
                host: passHost, port: resolvedPort, database: self.database, user: resolvedUser)
            warnings = lookup.warnings
            self.password = lookup.password
            passwordSource = lookup.password == nil ? .none : .passwordFile(path: path)
        } else {
            self.password = nil
            passwordSource = .none
        }
    }

    /// Whether `text` is meant as a PostgreSQL location (starts with `postgres://` or
    /// `postgresql://`) rather than a file path.
    public static func isPostgresURL(_ text: String) -> Bool {
        PostgresURL.scheme(of: text) != nil
    }

    // MARK: - Describing

    /// The server for sentences: `db.example.org:5432`, `[::1]:5432`, or
    /// `/var/run/postgresql (port 5432)`.
    public var server: String {
        switch endpoint {
        case let .tcp(host, port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case let .socket(folder, port): "\(folder) (port \(port))"
        }
    }
}

extension PostgresLocation: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `postgres://ana@db.example.org:5432/tabshell?sslmode=prefer (password from PGPASSWORD, not shown)`:
    /// never the password itself.
    public var description: String {
        var text = address + "?sslmode=" + sslMode.rawValue
        if case let .socket(folder, _) = endpoint {
            text += "&host=" + Self.escaped(folder)
        }
        switch passwordSource {
        case .url: text += " (password from the URL, not shown)"
        case .environment: text += " (password from PGPASSWORD, not shown)"
        case let .passwordFile(path): text += " (password from \(path), not shown)"
        case .none: text += " (no password)"
        }
        return text
    }

    /// `postgres://ana@db.example.org:5432/tabshell`: the store's name in sentences (never a
    /// password; a socket folder is left out, ``server`` names it).
    public var address: String {
        var text = "postgres://\(Self.escaped(user))@"
        switch endpoint {
        case let .tcp(host, port): text += (host.contains(":") ? "[\(host)]" : Self.escaped(host)) + ":\(port)"
        case let .socket(_, port): text += ":\(port)"
        }
        return text + "/" + Self.escaped(database)
    }

    public var debugDescription: String { "PostgresLocation(\(description))" }

    /// The fields without the password, so `dump` and reflection cannot print it.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "endpoint": endpoint, "user": user, "database": database, "sslMode": sslMode,
                "trustRoots": trustRoots, "connectTimeoutSeconds": connectTimeoutSeconds,
                "applicationName": applicationName as Any, "password": password == nil ? "none" : "not shown",
                "passwordSource": passwordSource, "warnings": warnings,
            ],
            displayStyle: .struct)
    }

    /// Percent-encodes what would change a URL's meaning.
    private static func escaped(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
