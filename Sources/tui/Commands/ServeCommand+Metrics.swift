import Dispatch
import Foundation
import Logging
import PostgresStorage
import SSHServer
import ServeMetrics
import ServePolicy
import TabShellCommands

/// `serve --metrics ADDR`: the Prometheus backend booted before anything counts, the endpoint
/// started once the SSH server listens, and the readiness probe of the store in force.
extension ServeCommand {
    /// The metrics server, its backend bootstrapped, when `--metrics` is given; before the SSH
    /// server and the launcher are made, so their series exist from the first scrape.
    func bootMetrics() -> MetricsServer? {
        guard options.metricsAddress != nil else { return nil }
        let metrics = MetricsServer.bootstrap(version: TabShellCommand.configuration.version)
        metrics.addHelp(SSHServerMetrics.help.merging(ServeSessionMetrics.help) { first, _ in first })
        ServeSessionMetrics.declareAll()
        return metrics
    }

    /// Adds what is read at each scrape, starts the readiness probe and listens; prints where.
    /// An address it cannot listen on stops the start, except after an upgrade (`upgraded`),
    /// where the server being replaced holds it until it has handed over: then it is taken as
    /// soon as it is free.
    func startMetrics(
        _ metrics: MetricsServer, recordings: ServeRecordings?, presenting: ServePresenting, demoSets: DemoDataSets?, upgraded: Bool,
        logger: Logger
    ) throws {
        guard let address = options.metricsAddress else { return }
        metrics.gauge("tabshell_watchers", help: "People watching a presentation now (ssh -t host watch CODE).") {
            presenting.watcherCount
        }
        if let recordings {
            let atStart = recordings.budget.used
            metrics.counter("tabshell_recording_bytes_total", help: "Bytes of asciicast written by --record since the server started.") {
                recordings.budget.used - atStart
            }
        }
        let probe = try storeProbe(demoSets: demoSets, logger: logger)
        metrics.follow(
            ReadinessMonitor(probe: probe) { ready in
                if ready {
                    logger.notice("ready: the store answers")
                } else {
                    logger.warning("not ready: the store does not answer within 1 s")
                }
            })
        let (host, port) = (address.host, address.port)
        switch Self.wait({ try await metrics.start(host: host, port: port) }) {
        case .success(let port):
            let host = address.host.contains(":") ? "[\(address.host)]" : address.host
            print("Metrics on http://\(host):\(port)/metrics (and /healthz, /readyz)")
        case .failure where upgraded:
            // The server this one upgrades lets the port go once it has handed over (after this
            // server says it is ready): taken then, tried every 250 ms for a minute.
            let given = options.metrics ?? ""
            Task {
                for _ in 0..<240 {
                    try? await Task.sleep(for: .milliseconds(250))
                    if let bound = try? await metrics.start(host: host, port: port) {
                        logger.notice("metrics served after the upgrade", metadata: ["port": "\(bound)"])
                        return
                    }
                }
                logger.error("metrics not served: the address stayed taken after the upgrade", metadata: ["address": "\(given)"])
            }
        case .failure(let error):
            throw Failure("--metrics \(options.metrics ?? ""): cannot listen there (\(error)).")
        }
    }

    /// Whether the store in force answers: PostgreSQL a `SELECT 1` on a connection of the probe's
    /// own; SQLite its file opened and its header read; the demo its folder of data sets there
    /// and writable. The file checks run on a queue of their own: a hung disk holds nothing else.
    private func storeProbe(demoSets: DemoDataSets?, logger: Logger) throws -> ReadinessMonitor.Probe {
        let environment = ProcessInfo.processInfo.environment
        if let demoSets {
            let folder = demoSets.parent.path
            return Self.offTheLoop { access(folder, R_OK | W_OK | X_OK) == 0 }
        }
        if let text = options.database.postgresURL(environment: environment) {
            let probe = try PostgresProbe(location: PostgresLocation(url: text, environment: environment), logger: logger)
            return { await probe.answers() }
        }
        let file = options.database.databaseURL(environment: environment).path
        return Self.offTheLoop {
            guard let handle = FileHandle(forReadingAtPath: file) else { return false }
            defer { try? handle.close() }
            let header = (try? handle.read(upToCount: 16)) ?? Data()
            return header == Data("SQLite format 3\0".utf8)
        }
    }

    private static func offTheLoop(_ check: @escaping @Sendable () -> Bool) -> ReadinessMonitor.Probe {
        let queue = DispatchQueue(label: "tabshell.serve.readiness")
        return {
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: check()) }
            }
        }
    }
}
