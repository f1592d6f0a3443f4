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

/// A second throw-away server of its own that offers TLS (`TABSHELL_PG_TLS=1
/// scripts/pg-test-server start`): its certificate names `localhost` only, signed by a CA
/// made for it. Stopped and removed on deinit. It needs no `TABSHELL_TEST_DATABASE_URL`, only
/// PostgreSQL installed (a failed start is the script's sentence).
final class TLSServer {
    let url: String
    let caFile: String
    private let folder: TemporaryFolder
    private let state: String

    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/pg-test-server").path

    /// `onlyTLS`: TCP connections without TLS are refused (pg_hba.conf's `hostssl`).
    init(onlyTLS: Bool = false) throws {
        folder = try TemporaryFolder()
        state = folder.path + "/state"
        try Self.run("start", state: state, log: folder.path + "/start.log", onlyTLS: onlyTLS)
        let lines = try String(contentsOfFile: state, encoding: .utf8).split(separator: "\n")
        func value(_ key: String) -> String? {
            lines.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        guard let url = value("url"), let ca = value("ca"), !ca.isEmpty else {
            throw TestFailure("The TLS test server's state file lacks its URL or CA.")
        }
        self.url = url
        caFile = ca
    }

    deinit {
        try? Self.run("stop", state: state, log: folder.path + "/stop.log")
    }

    /// The server's location with `sslmode`, through `host` (the URL's 127.0.0.1 unless told),
    /// trusting `roots`.
    func location(_ mode: PostgresSSLMode, host: String = "127.0.0.1", roots: PostgresTrustRoots? = nil) throws -> PostgresLocation {
        var location = try PostgresLocation(url: url, environment: ["HOME": "/nonexistent"])
        if case let .tcp(_, port) = location.endpoint {
            location.endpoint = .tcp(host: host, port: port)
        }
        location.sslMode = mode
        location.trustRoots = roots ?? .file(caFile)
        return location
    }

    private static func run(_ command: String, state: String, log: String, onlyTLS: Bool = false) throws {
        var environment = ["TABSHELL_PG_STATE": state, "TABSHELL_PG_TLS": "1", "TABSHELL_PG_TLS_ONLY": onlyTLS ? "1" : ""]
        for key in ["PATH", "HOME", "TMPDIR"] {
            environment[key] = ProcessInfo.processInfo.environment[key]
        }
        let child = try ChildProcess.spawn("/bin/bash", arguments: [script, command], environment: environment, outputPath: log)
        while child.poll() == nil { usleep(10_000) }
        guard child.poll() == .exited(0) else {
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw TestFailure("scripts/pg-test-server \(command) failed: \(output)")
        }
    }
}

@Suite("PostgreSQL over TLS", .serialized, .tags(.postgres))
struct TLSTests {
    /// Whether the connection `location` makes is encrypted, or the sentence it fails with.
    private func encryption(_ location: PostgresLocation) -> Result<Bool, StorageError> {
        Result { () throws(StorageError) -> Bool in
            let pool = try PostgresPool(location: location, maximumConnections: 1)
            defer { pool.close() }
            return try pool.withConnection { session throws(StorageError) in
                try session.value("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", as: Bool.self) ?? false
            }
        }
    }

    @Test func everySSLModeAgainstAServerWithACertificate() throws {
        let server = try TLSServer()

        #expect(try encryption(server.location(.disable)).get() == false)
        // allow tries a plain connection first, which this server accepts.
        #expect(try encryption(server.location(.allow)).get() == false)
        #expect(try encryption(server.location(.prefer)).get() == true)
        #expect(try encryption(server.location(.require)).get() == true)
        // require checks nothing: a certificate from an unknown CA is fine.
        #expect(try encryption(server.location(.require, roots: .system)).get() == true)
        #expect(try encryption(server.location(.verifyCA)).get() == true)
        #expect(try encryption(server.location(.verifyFull, host: "localhost")).get() == true)
    }

    @Test func allowTriesTLSWhenAPlainConnectionIsRefused() throws {
        // Given a server that refuses TCP connections without TLS
        let server = try TLSServer(onlyTLS: true)

        // Then disable is refused with the server's own reason, allow's plain attempt is refused
        // and its second attempt (TLS, as libpq's) goes through, and prefer starts with TLS
        let refused = encryption(try server.location(.disable))
        guard case let .failure(error) = refused else {
            Issue.record("a plain connection was let in by a server that refuses them")
            return
        }
        #expect(error.message.hasPrefix("Cannot reach PostgreSQL at 127.0.0.1:"), "\(error.message)")
        #expect(error.message.contains("no encryption"), "\(error.message)")
        #expect(try encryption(server.location(.allow)).get() == true)
        #expect(try encryption(server.location(.prefer)).get() == true)
    }

    @Test func theVerifyingModesRefuseWhatLibpqRefuses() throws {
        let server = try TLSServer()

        // The CA is not among the system's roots.
        for mode in [PostgresSSLMode.verifyCA, .verifyFull] {
            let result = encryption(try server.location(mode, host: "localhost", roots: .system))
            guard case let .failure(error) = result else {
                Issue.record("\(mode) trusted a certificate from an unknown CA")
                continue
            }
            let port = error.message.split(separator: ":").dropFirst().first.map(String.init) ?? ""
            #expect(
                error.message
                    == "Cannot reach PostgreSQL at localhost:\(port): its certificate is not signed by one of the system's trusted "
                    + "authorities (sslmode=\(mode.rawValue); sslrootcert says whom to trust).")
        }
        // The certificate names localhost, not 127.0.0.1: verify-ca does not mind, verify-full does.
        #expect(try encryption(server.location(.verifyCA, host: "127.0.0.1")).get() == true)
        let result = encryption(try server.location(.verifyFull, host: "127.0.0.1"))
        guard case let .failure(error) = result else {
            Issue.record("verify-full accepted a certificate for localhost from 127.0.0.1")
            return
        }
        #expect(error.message.hasPrefix("Cannot reach PostgreSQL at 127.0.0.1:"), "\(error.message)")
        #expect(error.message.hasSuffix(": its certificate does not name 127.0.0.1 (sslmode=verify-full)."), "\(error.message)")
    }
}
