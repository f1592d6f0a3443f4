import Foundation
import Logging
import SSHServer
import ServePolicy

/// What an upgrade starts: the binary installed at the path this server was started by (so a
/// package's new build, or a re-pointed link, runs), with this server's own arguments.
struct UpgradePlan {
    let path: String
    let arguments: [String]
    /// How long the old server keeps its sessions after handing over.
    let drainLimit: Duration
}

extension ServeCommand {
    /// Serves until SIGTERM or SIGINT. On SIGUSR2, upgrades: starts `upgrade.path` on the same
    /// listening socket and, once it says it listens, stops accepting and keeps the sessions
    /// running here until they end, or until the drain limit (then ends them, saying why, as a
    /// stop does: their work is kept for when they connect again). A successor that cannot
    /// start, or is not ready in time, changes nothing: this server goes on. A server started by
    /// an upgrade stops its predecessor when it stops.
    func serveUntilStopped(
        _ server: SSHServer, events: ServeEvents, upgrade: UpgradePlan, predecessor: pid_t?, logger: Logger, handedOver: () -> Void = {}
    ) {
        var drainingUntil: ContinuousClock.Instant?
        while true {
            let event = events.next(timeout: drainingUntil == nil ? nil : .milliseconds(200))
            switch event {
            case .stop:
                // The server this one followed, if it still drains (it is this process's parent
                // while it lives), stops too: a service stop stops the whole service.
                if let predecessor, getppid() == predecessor { kill(predecessor, SIGTERM) }
                if drainingUntil == nil { ServiceManager.notify("STOPPING=1") }
                _ = Self.wait { await server.stop() }
                return
            case .upgrade:
                guard drainingUntil == nil else {
                    logger.notice("upgrade asked again: this server has handed over already and only drains")
                    continue
                }
                if handOver(server, to: upgrade, logger: logger) {
                    drainingUntil = .now + upgrade.drainLimit
                    handedOver()
                }
            case nil:
                guard let until = drainingUntil else { continue }
                if server.runningSessions == 0 && server.openConnections == 0 {
                    logger.notice("drained: the last session has ended")
                    _ = Self.wait { await server.stop() }
                    return
                }
                if ContinuousClock.now >= until {
                    logger.notice("drain limit reached: ending the sessions left", metadata: ["sessions": "\(server.runningSessions)"])
                    _ = Self.wait {
                        await server.stop(saying: "the server was upgraded and this session reached its drain limit: connect again to go on where you were.")
                    }
                    return
                }
            }
        }
    }

    /// Starts the successor and waits until it listens; true once this server has stopped
    /// accepting. Every failure is logged and leaves this server serving.
    private func handOver(_ server: SSHServer, to upgrade: UpgradePlan, logger: Logger) -> Bool {
        guard let listener = server.listenerDescriptor else { return false }
        logger.notice("upgrade: starting the binary installed now", metadata: ["executable": "\(upgrade.path)"])
        let successor: ServeUpgrade.Successor
        do {
            successor = try ServeUpgrade.start(executable: upgrade.path, arguments: upgrade.arguments, listener: listener)
        } catch {
            logger.error("upgrade failed: the new server could not be started; this one goes on", metadata: ["error": "\(error.reason)"])
            print("Upgrade failed: \(upgrade.path) could not be started (\(error.reason)); this server goes on.")
            fflush(nil)
            return false
        }
        guard successor.waitUntilReady(limit: .seconds(60)) else {
            logger.error(
                "upgrade failed: the new server did not start (its output says why); this one goes on", metadata: ["pid": "\(successor.pid)"])
            print("Upgrade failed: the new server (pid \(successor.pid)) did not start; this server goes on.")
            fflush(nil)
            return false
        }
        _ = Self.wait { await server.stopAccepting() }
        let sessions = server.runningSessions
        logger.notice(
            "upgraded: the new server serves new connections; this one keeps its sessions until they end",
            metadata: ["successor": "\(successor.pid)", "sessions": "\(sessions)", "drainLimit": "\(drainLimit)"])
        print("Handed over to pid \(successor.pid); keeping \(sessions) session\(sessions == 1 ? "" : "s") until they end (at most \(drainLimit)).")
        fflush(nil)
        return true
    }

    /// The path this process was started by, made absolute, links not followed (a package
    /// installs a new file there, or a link is re-pointed): argv[0] when it names a file, else
    /// the first match on PATH. Nil when neither says.
    static func startedPath() -> String? {
        guard let first = CommandLine.arguments.first, !first.isEmpty else { return nil }
        if first.contains("/") {
            let absolute = first.hasPrefix("/") ? first : FileManager.default.currentDirectoryPath + "/" + first
            return URL(fileURLWithPath: absolute).standardized.path
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = "\(folder)/\(first)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
