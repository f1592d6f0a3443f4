import Foundation
import Storage

/// The parts of a `postgres://` or `postgresql://` URL as written, percent-decoded, before
/// any default is applied. libpq's URI grammar:
///
///     postgres[ql]://[user[:password]@][host][:port][/dbname][?param=value&...]
///
/// The host may be a name, an IPv4 address, an IPv6 address in brackets (`[::1]`) or a
/// percent-encoded socket folder (`%2Fvar%2Frun%2Fpostgresql`). Several hosts
/// (`a:5432,b:5433`) are refused: tabshell talks to one server.
struct PostgresURL {
    var user: String?
    var password: String?
    var host: String?
    var port: Int?
    var database: String?
    /// The query's parameters in the order written (a repeated name: the last one counts).
    var parameters: [(name: String, value: String)] = []

    /// The schemes libpq accepts.
    static let schemes = ["postgres://", "postgresql://"]

    /// The one of ``schemes`` `text` starts with (in any case): then it is meant as a
    /// PostgreSQL location rather than a file path.
    static func scheme(of text: String) -> String? {
        let lowered = text.lowercased()
        return schemes.first { lowered.hasPrefix($0) }
    }

    /// Parses `text`; every refusal is one sentence that never repeats the URL (it may hold a
    /// password).
    init(parsing text: String) throws(StorageError) {
        guard let scheme = Self.scheme(of: text) else {
            throw .invalidInput("A PostgreSQL location starts with postgres:// or postgresql://.")
        }
        var rest = Substring(text.dropFirst(scheme.count))
        if rest.contains("#") {
            throw .invalidInput("A PostgreSQL URL cannot have a #fragment.")
        }
        if let mark = rest.firstIndex(of: "?") {
            parameters = try Self.parameters(rest[rest.index(after: mark)...])
            rest = rest[..<mark]
        }
        let authority: Substring
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            let path = rest[rest.index(after: slash)...]
            if path.contains("/") {
                throw .invalidInput("A PostgreSQL URL's path is one database name; it cannot hold a /.")
            }
            let name = try Self.decode(path, what: "database name")
            database = name.isEmpty ? nil : name
        } else {
            authority = rest
        }

        var hostAndPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostAndPort = authority[authority.index(after: at)...]
            let colon = userInfo.firstIndex(of: ":")
            let name = try Self.decode(userInfo[..<(colon ?? userInfo.endIndex)], what: "user name")
            user = name.isEmpty ? nil : name
            if let colon {
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], what: "password")
            }
        }
        (host, port) = try Self.hostAndPort(hostAndPort)
    }

    // MARK: - Parts

    private static func hostAndPort(_ text: Substring) throws(StorageError) -> (String?, Int?) {
        if text.contains(",") {
            throw .invalidInput("A PostgreSQL URL with several hosts is not supported; name one server.")
        }
        var portText: Substring?
        let host: String
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw .invalidInput("A PostgreSQL URL's IPv6 address lacks its closing ].")
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw .invalidInput("A PostgreSQL URL's IPv6 address in brackets can only be followed by :port.")
                }
                portText = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." || $0 == "%" }) else {
                throw .invalidInput("A PostgreSQL URL's brackets hold something that is not an IPv6 address.")
            }
        } else if let colon = text.firstIndex(of: ":") {
            host = try decode(text[..<colon], what: "host")
            portText = text[text.index(after: colon)...]
        } else {
            host = try decode(text, what: "host")
        }
        var port: Int?
        if let portText, !portText.isEmpty {
            port = try Self.port(String(portText))
        }
        return (host.isEmpty ? nil : host, port)
    }

    /// A port number, 1–65535, digits only.
    static func port(_ text: String) throws(StorageError) -> Int {
        guard text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(text), (1...65_535).contains(port)
        else {
            throw .invalidInput("A PostgreSQL port is a number from 1 to 65535, not “\(text.prefix(20))”.")
        }
        return port
    }

    private static func parameters(_ query: Substring) throws(StorageError) -> [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "=") else {
                throw .invalidInput("A PostgreSQL URL's parameter needs a value (name=value).")
            }
            let name = try decode(pair[..<equals], what: "parameter name")
            let value = try decode(pair[pair.index(after: equals)...], what: "parameter value")
            result.append((name, value))
        }
        return result
    }

    /// Percent-decodes `text` strictly: a `%` must start two hex digits, and the bytes must be
    /// UTF-8. `+` stays a plus, as in libpq.
    static func decode(_ text: Substring, what: String) throws(StorageError) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.first {
            utf8 = utf8.dropFirst()
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            let digits = utf8.prefix(2)
            guard digits.count == 2, let value = UInt8(String(decoding: digits, as: UTF8.self), radix: 16) else {
                throw .invalidInput("A PostgreSQL URL's \(what) has a % that does not start two hex digits.")
            }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .invalidInput("A PostgreSQL URL's \(what) is not UTF-8 once decoded.")
        }
        return decoded
    }
}
