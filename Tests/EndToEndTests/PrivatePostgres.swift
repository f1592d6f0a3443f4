import Foundation
import TestSupport

/// A PostgreSQL server of one test's own (`scripts/pg-test-server` with its state in a folder of
/// the test's), so the test can freeze, kill and revive it without touching the suite's server.
/// When the test lets go of it, it is thawed if frozen, stopped, and its folder removed.
final class PrivatePostgres {
    /// The test's folder: the server's state, and whatever else the test keeps beside it.
    let folder: URL
    /// Its `postgres://` URL.
    let url: String
    private var frozen = false

    init(named prefix: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let started = try PostgresEndToEndTests.server("start", in: folder)
            guard let url = started.split(separator: "\n").last(where: { $0.hasPrefix("postgres://") }).map(String.init) else {
                throw HarnessError("no URL from pg-test-server: \(started)")
            }
            self.folder = folder
            self.url = url
        } catch {
            _ = try? PostgresEndToEndTests.server("stop", in: folder)
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Stops its processes (SIGSTOP): connections stay open and nothing answers.
    func freeze() throws {
        _ = try PostgresEndToEndTests.server("freeze", in: folder)
        frozen = true
    }

    /// Lets them run again.
    func thaw() throws {
        _ = try PostgresEndToEndTests.server("thaw", in: folder)
        frozen = false
    }

    /// Any other of the control script's commands (`kill`, `revive`).
    func control(_ command: String) throws {
        _ = try PostgresEndToEndTests.server(command, in: folder)
    }

    deinit {
        if frozen { _ = try? PostgresEndToEndTests.server("thaw", in: folder) }
        _ = try? PostgresEndToEndTests.server("stop", in: folder)
        try? FileManager.default.removeItem(at: folder)
    }
}
