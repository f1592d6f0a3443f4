import CoreMetrics
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import SSHServer
import Synchronization

/// `tabshell serve --metrics ADDR`: swift-metrics' Prometheus backend and the HTTP endpoint
/// that shows it (`/metrics`), says the process lives (`/healthz`) and whether the store
/// answers (`/readyz`). The HTTP side assumes a hostile client: one request a connection, at
/// most ``Limits/requestBytes`` of it, ``Limits/maxConnections`` at once, each closed after
/// ``Limits/connectionDeadline`` whatever it is doing, on an event loop of its own (never the
/// SSH server's).
public final class MetricsServer: Sendable {
    public struct Limits: Sendable {
        /// Connections open at once; more are closed as they come.
        public var maxConnections = 16
        /// What one connection may send: its request head.
        public var requestBytes = 8 * 1024
        /// From accept to close, whatever the client does (a slow client is cut off here).
        public var connectionDeadline: TimeAmount = .seconds(5)

        public init() {}
    }

    public static let buildInfo = "tabshell_build_info"
    public static let storeReachable = "tabshell_store_reachable"

    private let registry: PrometheusCollectorRegistry
    private let exposition: Mutex<MetricsExposition>
    /// What each scrape runs first: the gauges and counters read from the app.
    private let collectors = Mutex<[@Sendable () -> Void]>([])
    private let reachable: Prometheus.Gauge
    private let readiness = Mutex<ReadinessMonitor?>(nil)
    private let limits: Limits
    private let running = Mutex<(group: MultiThreadedEventLoopGroup, channel: any Channel)?>(nil)

    /// Makes the registry and bootstraps swift-metrics onto it; once per process, before anything
    /// counts (swift-metrics takes one backend for the process's life).
    public static func bootstrap(version: String, limits: Limits = Limits()) -> MetricsServer {
        let server = MetricsServer(version: version, limits: limits)
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: server.registry))
        return server
    }

    private init(version: String, limits: Limits) {
        self.limits = limits
        registry = PrometheusCollectorRegistry()
        exposition = Mutex(MetricsExposition(help: [:]))
        registry.makeGauge(
            descriptor: Self.descriptor(Self.buildInfo, help: "Always 1; the label is this binary's version."), labels: [("version", version)]
        )
        .set(to: 1)
        reachable = registry.makeGauge(
            descriptor: Self.descriptor(Self.storeReachable, help: "1 while the store answers the readiness probe within its deadline, else 0."))
    }

    /// A metric's whole name and help text, as the registry takes them (no unit suffix added:
    /// the names carry theirs).
    private static func descriptor(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }

    /// `# HELP` texts for metrics counted through swift-metrics (which carries none).
    public func addHelp(_ help: [String: String]) {
        exposition.withLock { $0 = MetricsExposition(help: $0.help.merging(help) { _, new in new }) }
    }

    /// A gauge read at each scrape from `value`.
    public func gauge(_ name: String, help: String, value: @escaping @Sendable () -> Int) {
        let gauge = registry.makeGauge(descriptor: Self.descriptor(name, help: help))
        collectors.withLock { $0.append { gauge.set(to: Double(value())) } }
    }

    /// A counter read at each scrape from `total`, a count that only grows (what it grew by since
    /// the last scrape is added).
    public func counter(_ name: String, help: String, total: @escaping @Sendable () -> Int) {
        let counter = registry.makeCounter(descriptor: Self.descriptor(name, help: help))
        let last = Mutex(0)
        collectors.withLock {
            $0.append {
                let now = total()
                let grown = last.withLock { last in
                    defer { last = max(last, now) }
                    return now - last
                }
                if grown > 0 { counter.increment(by: Int64(grown)) }
            }
        }
    }

    /// Starts `monitor`, which `/readyz` and `tabshell_store_reachable` follow from now on.
    public func follow(_ monitor: ReadinessMonitor) {
        readiness.withLock { $0 = monitor }
        monitor.start()
    }

    /// The exposition as a scrape sees it.
    public func metricsText() -> String {
        for collect in collectors.withLock({ $0 }) { collect() }
        reachable.set(to: isReady ? 1 : 0)
        return exposition.withLock { $0 }.withHelp(registry.emitToString())
    }

    public var isReady: Bool { readiness.withLock { $0 }?.isReady ?? true }

    /// Listens on `host`:`port` (0: a free port) and returns the port.
    public func start(host: String, port: Int) async throws -> Int {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let limits = self.limits
        let pages = MetricsPages(metrics: { [self] in metricsText() }, ready: { [self] in isReady })
        let open = NIOLockedValueBox(0)
        let bootstrap = ServerBootstrap(group: group)
            .childChannelOption(.maxMessagesPerRead, value: 1)
            .childChannelInitializer { channel in
                let admitted = open.withLockedValue { count in
                    guard count < limits.maxConnections else { return false }
                    count += 1
                    return true
                }
                guard admitted else { return channel.close() }
                let cutOff = channel.eventLoop.scheduleTask(in: limits.connectionDeadline) { channel.close(promise: nil) }
                channel.closeFuture.whenComplete { _ in
                    cutOff.cancel()
                    open.withLockedValue { $0 -= 1 }
                }
                return channel.eventLoop.makeCompletedFuture {
                    let handlers = channel.pipeline.syncOperations
                    try handlers.addHandler(RequestSizeLimit(limit: limits.requestBytes))
                    try handlers.configureHTTPServerPipeline(withPipeliningAssistance: false, withErrorHandling: true)
                    try handlers.addHandler(MetricsHTTPHandler(pages: pages))
                    try handlers.addHandler(NIOCloseOnErrorHandler())
                }
            }
        do {
            // SSHServer's listening socket: close-on-exec, so a server upgraded in place does not leave
            // it open in its successor, accepting connections nobody reads and holding the port it wants.
            let descriptor: CInt
            do {
                descriptor = try ListeningSocket.bind(host: host, port: port)
            } catch .cannotListen(let address, let reason) {
                throw ListenFailure(description: "\(address): \(reason)")
            } catch {
                throw ListenFailure(description: error.description)
            }
            let channel = try await bootstrap.serverChannelOption(.backlog, value: 32).withBoundSocket(descriptor).get()
            running.withLock { $0 = (group, channel) }
            return channel.localAddress?.port ?? port
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Why the endpoint cannot listen: "host:port: reason".
    struct ListenFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Stops listening and the readiness probe.
    public func stop() async {
        readiness.withLock { $0 }?.stop()
        guard let (group, channel) = running.withLock({ $0.take() }) else { return }
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}
