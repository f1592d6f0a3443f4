import Foundation
import PostgresNIO
import Storage
import TestSupport
import Testing

@testable import PostgresStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An environment with no PostgreSQL variables and a home without a password file.
private let bare = ["HOME": "/nonexistent", "USER": "ana"]

private func location(_ url: String, _ environment: [String: String] = bare) throws -> PostgresLocation {
    try PostgresLocation(url: url, environment: environment)
}

/// The sentence `url` is refused with.
private func refusal(_ url: String, _ environment: [String: String] = bare) -> String? {
    do {
        _ = try PostgresLocation(url: url, environment: environment)
        return nil
    } catch {
        return error.message
    }
}

@Suite("PostgreSQL locations", .tags(.postgres))
struct LocationTests {
    // MARK: - The URL's parts

    @Test func readsEveryPartOfAFullURL() throws {
        let place = try location("postgres://bo:s3cret@db.example.org:6432/stock")
        #expect(place.endpoint == .tcp(host: "db.example.org", port: 6432))
        #expect(place.user == "bo")
        #expect(place.password == "s3cret")
        #expect(place.passwordSource == .url)
        #expect(place.database == "stock")
        #expect(place.sslMode == .prefer)
        #expect(place.connectTimeoutSeconds == PostgresLocation.defaultConnectTimeout)
        #expect(place.server == "db.example.org:6432")
    }

    @Test func acceptsBothSchemesInAnyCase() throws {
        for scheme in ["postgres", "postgresql", "POSTGRES", "PostgreSQL"] {
            let place = try location("\(scheme)://bo@h/db")
            #expect(place.endpoint == .tcp(host: "h", port: 5432), "\(scheme)")
        }
        #expect(PostgresLocation.isPostgresURL("postgresql://h/db"))
        #expect(!PostgresLocation.isPostgresURL("/home/ana/tabshell.sqlite"))
        #expect(refusal("mysql://h/db") == "A PostgreSQL location starts with postgres:// or postgresql://.")
    }

    @Test func readsIPv6AddressesInBrackets() throws {
        let withPort = try location("postgres://bo@[2001:db8::5]:6432/db")
        #expect(withPort.endpoint == .tcp(host: "2001:db8::5", port: 6432))
        #expect(withPort.server == "[2001:db8::5]:6432")
        let withoutPort = try location("postgres://bo@[::1]/db")
        #expect(withoutPort.endpoint == .tcp(host: "::1", port: 5432))
        #expect(refusal("postgres://bo@[::1/db") == "A PostgreSQL URL's IPv6 address lacks its closing ].")
        #expect(refusal("postgres://bo@[::1]x/db") == "A PostgreSQL URL's IPv6 address in brackets can only be followed by :port.")
        #expect(refusal("postgres://bo@[db.example]/db") == "A PostgreSQL URL's brackets hold something that is not an IPv6 address.")
    }

    @Test func percentDecodesEveryPart() throws {
        let place = try location("postgres://b%C3%B8:p%40ss%3Aw%2Fd%25@h/st%20ock")
        #expect(place.user == "bø")
        #expect(place.password == "p@ss:w/d%")
        #expect(place.database == "st ock")
        // A plus stays a plus, as in libpq.
        #expect(try location("postgres://bo:a+b@h/db").password == "a+b")
        // An unescaped @ in the password: the last @ ends the user part.
        #expect(try location("postgres://bo:a@b@h/db").password == "a@b")
    }

    @Test func refusesBadPercentEncoding() {
        #expect(refusal("postgres://bo:%zz@h/db") == "A PostgreSQL URL's password has a % that does not start two hex digits.")
        #expect(refusal("postgres://bo@h/db%4") == "A PostgreSQL URL's database name has a % that does not start two hex digits.")
        #expect(refusal("postgres://bo@h/%FF") == "A PostgreSQL URL's database name is not UTF-8 once decoded.")
    }

    @Test func appliesLibpqDefaults() throws {
        let place = try location("postgres://")
        #expect(place.endpoint == .socket(folder: "/var/run/postgresql", port: 5432))
        #expect(place.user == "ana")
        #expect(place.database == "ana")
        #expect(place.server == "/var/run/postgresql (port 5432)")
        #expect(try location("postgres:///stock").database == "stock")
        #expect(try location("postgres://h").endpoint == .tcp(host: "h", port: 5432))
        #expect(try location("postgres://h:7000").endpoint == .tcp(host: "h", port: 7000))
        #expect(try location("postgres://h/", ["LOGNAME": "cy"]).user == "cy")
        #expect(
            refusal("postgres://h/db", [:]) == "The PostgreSQL URL names no user, and USER is not set; write postgres://USER@host/database.")
    }

    @Test func readsSocketFolders() throws {
        #expect(try location("postgres://%2Ftmp%2Fpg:6000/db").endpoint == .socket(folder: "/tmp/pg", port: 6000))
        #expect(try location("postgres:///db?host=/tmp/pg&port=6001").endpoint == .socket(folder: "/tmp/pg", port: 6001))
    }

    @Test func queryParametersOverrideTheURLsParts() throws {
        let place = try location("postgres://bo:x@h:1/a?host=other&port=2&user=cy&dbname=b&password=y")
        #expect(place.endpoint == .tcp(host: "other", port: 2))
        #expect(place.user == "cy")
        #expect(place.database == "b")
        #expect(place.password == "y")
    }

    @Test func refusesPortsThatAreNotPorts() {
        for port in ["0", "65536", "-1", "12a", "99999999999999999999"] {
            #expect(refusal("postgres://h:\(port)/db")?.hasPrefix("A PostgreSQL port is a number from 1 to 65535") == true, "\(port)")
        }
    }

    @Test func refusesSeveralHostsFragmentsAndPaths() {
        #expect(refusal("postgres://a:5432,b:5433/db") == "A PostgreSQL URL with several hosts is not supported; name one server.")
        #expect(refusal("postgres://h/db#x") == "A PostgreSQL URL cannot have a #fragment.")
        #expect(refusal("postgres://h/db/more") == "A PostgreSQL URL's path is one database name; it cannot hold a /.")
        #expect(refusal("postgres://h/db?sslmode") == "A PostgreSQL URL's parameter needs a value (name=value).")
    }

    // MARK: - Parameters

    @Test func readsEverySSLMode() throws {
        for mode in PostgresSSLMode.allCases {
            #expect(try location("postgres://h/db?sslmode=\(mode.rawValue)").sslMode == mode)
        }
        #expect(
            refusal("postgres://h/db?sslmode=on")
                == "sslmode “on” is not one of disable, allow, prefer, require, verify-ca, verify-full.")
        #expect(refusal("postgres:///db?sslmode=require") == "sslmode=require needs a TCP host; a unix socket has no TLS.")
    }

    @Test func sslModesMapOntoCertificateChecks() throws {
        #expect(PostgresSSLMode.disable.tlsConfiguration(roots: .system) == nil)
        for mode in [PostgresSSLMode.allow, .prefer, .require] {
            #expect(mode.tlsConfiguration(roots: .system)?.certificateVerification == CertificateVerification.none, "\(mode)")
        }
        #expect(PostgresSSLMode.verifyCA.tlsConfiguration(roots: .system)?.certificateVerification == .noHostnameVerification)
        #expect(PostgresSSLMode.verifyFull.tlsConfiguration(roots: .system)?.certificateVerification == .fullVerification)
        #expect(try location("postgres://h/db?sslrootcert=/etc/ca.pem").trustRoots == .file("/etc/ca.pem"))
        #expect(try location("postgres://h/db?sslrootcert=system").trustRoots == .system)
        #expect(try location("postgres://h/db").trustRoots == .system)
    }

    @Test func usesTheDefaultRootCertificateFileWhenItExists() throws {
        let home = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: home.path + "/.postgresql", withIntermediateDirectories: true)
        try write("", to: home.path + "/.postgresql/root.crt", mode: 0o644)
        let place = try location("postgres://h/db?sslmode=verify-full", ["HOME": home.path, "USER": "ana"])
        #expect(place.trustRoots == .file(home.path + "/.postgresql/root.crt"))
    }

    @Test func readsConnectTimeoutAsLibpqDoes() throws {
        #expect(try location("postgres://h/db?connect_timeout=5").connectTimeoutSeconds == 5)
        #expect(try location("postgres://h/db?connect_timeout=1").connectTimeoutSeconds == 2)
        #expect(try location("postgres://h/db?connect_timeout=0").connectTimeoutSeconds == 86_400)
        #expect(refusal("postgres://h/db?connect_timeout=soon") == "connect_timeout is a number of seconds from 0 to 86400.")
        #expect(refusal("postgres://h/db?connect_timeout=-3") == "connect_timeout is a number of seconds from 0 to 86400.")
    }

    @Test func refusesUnknownParametersByName() throws {
        #expect(
            refusal("postgres://h/db?sslmode=disable&target_session_attrs=any")
                == "The PostgreSQL URL parameter “target_session_attrs” is not one tabshell knows (it knows sslmode, "
                + "sslrootcert, connect_timeout, application_name, host, port, user, dbname, password).")
        #expect(try location("postgres://h/db?application_name=tabshell%20ana").applicationName == "tabshell ana")
    }

    // MARK: - Passwords

    @Test func takesThePasswordFromTheURLThenPGPASSWORDThenThePasswordFile() throws {
        let folder = try TemporaryFolder()
        let passFile = folder.path + "/pgpass"
        try write("h:5432:db:bo:from-file\n", to: passFile, mode: 0o600)
        let environment = ["HOME": "/nonexistent", "PGPASSFILE": passFile, "PGPASSWORD": "from-env"]

        #expect(try location("postgres://bo:from-url@h/db", environment).password == "from-url")
        // An empty password in the URL counts as none, as in libpq.
        let fromEnvironment = try location("postgres://bo:@h/db", environment)
        #expect(fromEnvironment.password == "from-env")
        #expect(fromEnvironment.passwordSource == .environment)
        var withoutVariable = environment
        withoutVariable["PGPASSWORD"] = nil
        let fromFile = try location("postgres://bo@h/db", withoutVariable)
        #expect(fromFile.password == "from-file")
        #expect(fromFile.passwordSource == .passwordFile(path: passFile))
        let none = try location("postgres://cy@h/db", withoutVariable)
        #expect(none.password == nil)
        #expect(none.passwordSource == .none)
    }

    @Test func findsThePasswordFileInHome() throws {
        let home = try TemporaryFolder()
        try write("*:*:*:*:in-home\n", to: home.path + "/.pgpass", mode: 0o600)
        #expect(try location("postgres://bo@h/db", ["HOME": home.path]).password == "in-home")
    }

    @Test func passwordFileLinesMatchWithWildcardsAndEscapesFirstMatchFirst() throws {
        let folder = try TemporaryFolder()
        let passFile = folder.path + "/pgpass"
        try write(
            """
            # a comment:with:colons:and:more
            other:5432:db:bo:wrong-host
            h:6432:db:bo:wrong-port
            h:*:db\\:x:bo:escaped-database
            h:*:*:bo:pass\\:with\\\\escapes:and:colons
            *:*:*:*:catch-all
            """, to: passFile, mode: 0o600)
        let environment = ["HOME": "/nonexistent", "PGPASSFILE": passFile]
        #expect(try location("postgres://bo@h/db%3Ax", environment).password == "escaped-database")
        #expect(try location("postgres://bo@h/db", environment).password == "pass:with\\escapes:and:colons")
        #expect(try location("postgres://cy@h/db", environment).password == "catch-all")
        // A socket connection matches "localhost", as in libpq.
        try write("localhost:5432:db:bo:socket\n", to: passFile, mode: 0o600)
        #expect(try location("postgres://bo@/db", environment).password == "socket")
    }

    @Test func ignoresAPasswordFileOthersCanReadWithAWarning() throws {
        let folder = try TemporaryFolder()
        let passFile = folder.path + "/pgpass"
        try write("*:*:*:*:exposed\n", to: passFile, mode: 0o640)
        let place = try location("postgres://bo@h/db", ["HOME": "/nonexistent", "PGPASSFILE": passFile])
        #expect(place.password == nil)
        #expect(
            place.warnings == [
                "The password file \(passFile) can be read or written by others (mode 640); it was ignored. Run chmod 600 \(passFile)."
            ])
        #expect(!place.warnings.joined().contains("exposed"))
    }

    @Test func ignoresAPasswordFileThatIsAFolder() throws {
        let folder = try TemporaryFolder()
        let place = try location("postgres://bo@h/db", ["HOME": "/nonexistent", "PGPASSFILE": folder.path])
        #expect(place.password == nil)
        #expect(place.warnings == ["The password file \(folder.path) is not a plain file; it was ignored."])
    }

    // MARK: - Never showing the password

    @Test func describingNeverShowsThePassword() throws {
        let folder = try TemporaryFolder()
        let passFile = folder.path + "/pgpass"
        try write("*:*:*:*:Secret-From-File\n", to: passFile, mode: 0o600)
        let places = [
            try location("postgres://bo:Secret-In-URL@h:6432/db?sslmode=require"),
            try location("postgresql://bo@[::1]/db", ["PGPASSWORD": "Secret-In-Env", "HOME": "/nonexistent"]),
            try location("postgres://bo@/db", ["PGPASSFILE": passFile, "HOME": "/nonexistent"]),
        ]
        #expect(places[0].description == "postgres://bo@h:6432/db?sslmode=require (password from the URL, not shown)")
        #expect(places[1].description == "postgres://bo@[::1]:5432/db?sslmode=prefer (password from PGPASSWORD, not shown)")
        #expect(
            places[2].description
                == "postgres://bo@:5432/db?sslmode=prefer&host=/var/run/postgresql (password from \(passFile), not shown)")
        for (place, secret) in zip(places, ["Secret-In-URL", "Secret-In-Env", "Secret-From-File"]) {
            #expect(place.password == secret)
            var dumped = ""
            dump(place, to: &dumped)
            let renderings = [
                place.description, place.debugDescription, "\(place)", String(reflecting: place), dumped,
                String(describing: Mirror(reflecting: place).children.map { "\($0.label ?? ""): \($0.value)" }),
            ]
            for text in renderings {
                #expect(!text.contains(secret), "\(text)")
            }
        }
    }

    @Test func refusalsNeverRepeatTheURL() {
        let secret = "Hunter2-Secret"
        let urls = [
            "postgres://bo:\(secret)@h:99999/db", "postgres://bo:\(secret)@h/db?sslmode=nope",
            "postgres://bo:\(secret)@h/db?unknown=1", "postgres://bo:\(secret)@a,b/db", "postgres://bo:\(secret)@h/db#f",
            "postgres://bo:\(secret)%zz@h/db",
        ]
        for url in urls {
            let sentence = refusal(url)
            #expect(sentence != nil, "\(url)")
            #expect(sentence?.contains(secret) == false, "\(sentence ?? "")")
        }
    }
}

// MARK: - Helpers

private func write(_ text: String, to path: String, mode: mode_t) throws {
    guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else {
        throw TestFailure("Cannot write \(path).")
    }
    guard chmod(path, mode) == 0 else { throw TestFailure("Cannot chmod \(path).") }
}
