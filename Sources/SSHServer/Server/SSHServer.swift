import Dispatch
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// An SSH server whose sessions each run a command chosen by the app's launcher, in a child
/// process on its own pseudo-terminal.
///
///     let server = SSHServer(configuration: configuration)
///     let report = try await server.start()      // prints-worthy: report.lines
///     …                                          // on SIGHUP: server.reloadAuthorizedKeys()
///     await server.stop()                        // on SIGTERM: hangs every child up, ≤ 2 s
public final class SSHServer: Sendable {
    public let configuration: SSHServerConfiguration

    private enum Lifecycle {
        case idle
        case starting
        case running(Running)
        case stopped
    }

    private struct Running {
        let group: MultiThreadedEventLoopGroup
        let listener: Channel
        let context: ServerContext
        let keysWatcher: DispatchSourceBox?
        /// The listening socket's descriptor, which ``listener`` owns and closes.
        let listenerDescriptor: CInt
        /// False once ``stopAccepting()`` closed the listener (a successor serves new connections).
        var accepting = true
    }

    private let lifecycle = NIOLockedValueBox(Lifecycle.idle)

    public init(configuration: SSHServerConfiguration) {
        self.configuration = configuration
    }

    /// What runs while the server is started (nil before and after).
    private var running: Running? {
        lifecycle.withLockedValue {
            if case .running(let running) = $0 { return running }
            return nil
        }
    }

    /// The listening socket while this server accepts connections: what an upgrade hands to the
    /// process that follows (which must get its own copy: this one is closed on exec).
    public var listenerDescriptor: CInt? { running.flatMap { $0.accepting ? $0.listenerDescriptor : nil } }

    /// Connections open now, with or without sessions.
    public var openConnections: Int { running?.context.connections.withLockedValue { $0.count } ?? 0 }

    /// Sessions whose child is running (or being launched) now.
    public var runningSessions: Int { running?.context.sessions.count ?? 0 }

    /// Reads (or creates) the host key, reads the authorized keys, and starts listening.
    /// Ignores SIGPIPE for the whole process: a child closing its stdin must not kill the server.
    public func start() async throws(SSHServerError) -> SSHServerStartReport {
        let claimed = lifecycle.withLockedValue { state in
            guard case .idle = state else { return false }
            state = .starting
            return true
        }
        guard claimed else { throw .alreadyStarted }
        do {
            let (running, report) = try await launch()
            lifecycle.withLockedValue { $0 = .running(running) }
            return report
        } catch {
            lifecycle.withLockedValue { $0 = .idle }
            throw error
        }
    }

    private func launch() async throws(SSHServerError) -> (Running, SSHServerStartReport) {
        signal(SIGPIPE, SIG_IGN)
        let logger = configuration.logger
        let (hostKey, created) = try SSHHostKey.loadOrCreate(
            at: URL(fileURLWithPath: configuration.hostKeyPath), comment: configuration.hostKeyComment)

        var store: AuthorizedKeysStore?
        var keysReport: AuthorizedKeysReport?
        if case .authorizedKeysFile(let path) = configuration.authorization {
            let keys = AuthorizedKeysStore(path: path)
            let report = try keys.reload().get()
            for problem in report.problems {
                logger.warning("authorized keys: \(report.path) \(problem)", metadata: [SSHServerStartReport.metadataKey: "yes"])
            }
            (store, keysReport) = (keys, report)
        }

        let context = ServerContext(configuration: configuration, hostKey: hostKey, authorizedKeys: store)
        let descriptor: CInt
        if let inherited = configuration.inheritedListener {
            guard ListeningSocket.isListening(inherited) else {
                throw .cannotListen(address: "descriptor \(inherited)", reason: "it is not a listening socket")
            }
            // Never passed on to a session's child.
            _ = fcntl(inherited, F_SETFD, FD_CLOEXEC)
            descriptor = inherited
        } else {
            descriptor = try ListeningSocket.bind(host: configuration.host, port: configuration.port)
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, min(4, System.coreCount)))
        let listener: Channel
        do {
            listener = try await ServerBootstrap(group: group)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .serverChannelOption(ChannelOptions.backlog, value: 128)
                .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try ConnectionInitializer.initialize(channel, context: context)
                    }
                }
                .withBoundSocket(descriptor)
                .get()
        } catch {
            if configuration.inheritedListener == nil { close(descriptor) }
            try? await group.shutdownGracefully()
            throw .cannotListen(address: "\(configuration.host):\(configuration.port)", reason: "\(error)")
        }
        let port = listener.localAddress?.port ?? configuration.port
        let watcher = store.map { DispatchSourceBox(source: startWatching($0, context: context, logger: logger)) }
        logger.notice(
            "listening",
            metadata: [
                "address": "\(configuration.host):\(port)", "hostKey": "\(hostKey.fingerprint.sha256)",
                SSHServerStartReport.metadataKey: "yes",
            ])
        let report = SSHServerStartReport(
            host: configuration.host, port: port, hostKey: hostKey, hostKeyCreated: created, authorizedKeys: keysReport)
        return (
            Running(group: group, listener: listener, context: context, keysWatcher: watcher, listenerDescriptor: descriptor),
            report
        )
    }

    /// Re-reads the authorized keys file now (the app calls this on SIGHUP). Later
    /// authentications see the change; a connection whose key is gone can start no new session,
    /// is closed when it runs none, and with ``SSHServerLimits/revokeEndsSessions`` has its
    /// sessions hung up. Nil when the policy has no file.
    @discardableResult
    public func reloadAuthorizedKeys() -> Result<AuthorizedKeysReport, SSHServerError>? {
        guard let context = running?.context, let store = context.authorizedKeys else { return nil }
        let result = store.reload()
        Self.apply(result, context: context, logger: configuration.logger)
        return result
    }

    private func startWatching(_ store: AuthorizedKeysStore, context: ServerContext, logger: Logger) -> any DispatchSourceTimer {
        let interval = Int(TimeAmount(configuration.authorizedKeysCheckInterval).nanoseconds)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "tabshell.ssh.authorized-keys"))
        timer.schedule(deadline: .now() + .nanoseconds(interval), repeating: .nanoseconds(interval))
        timer.setEventHandler {
            if let result = store.reloadIfChanged() { Self.apply(result, context: context, logger: logger) }
        }
        timer.resume()
        return timer
    }

    /// Logs a reload of the authorized keys and, when it succeeded, revokes the keys it dropped.
    private static func apply(_ result: Result<AuthorizedKeysReport, SSHServerError>, context: ServerContext, logger: Logger) {
        switch result {
        case .success(let report):
            logger.notice(
                "authorized keys read",
                metadata: [
                    "keys": "\(report.keys.count)", "refusedLines": "\(report.problems.count)",
                ])
            for problem in report.problems { logger.warning("authorized keys: \(report.path) \(problem)") }
            context.revokeConnectionsWithoutKeys()
        case .failure(let error):
            logger.error("authorized keys unreadable: nobody can log in until it is fixed", metadata: ["error": "\(error)"])
        }
    }

    /// Closes the listener and keeps everything else: the connections open now and their sessions
    /// go on, no new connection comes here (the process an upgrade started serves them, on its
    /// copy of the same socket). False when the server was not accepting.
    @discardableResult
    public func stopAccepting() async -> Bool {
        let listener: Channel? = lifecycle.withLockedValue {
            guard case .running(var running) = $0, running.accepting else { return nil }
            running.accepting = false
            $0 = .running(running)
            return running.listener
        }
        guard let listener else { return false }
        try? await listener.close()
        configuration.logger.notice("no longer accepting connections", metadata: ["connections": "\(openConnections)"])
        return true
    }

    /// Stops listening, tells every session `sentence` (the server is stopping), hangs every
    /// child up (SIGHUP, then SIGKILL after ``SSHServerLimits/stopGrace``), closes every
    /// connection once its sessions have said their last line. Returns within stopGrace plus
    /// about half a second, or at most 3.3 s more while a session's output is still held open.
    public func stop(saying sentence: String = "the server is stopping.") async {
        let running: Running? = lifecycle.withLockedValue { state in
            defer { state = .stopped }
            if case .running(let running) = state { return running }
            return nil
        }
        guard let running else { return }
        let logger = configuration.logger
        let sessions = running.context.sessions
        running.keysWatcher?.source.cancel()
        if running.accepting { try? await running.listener.close() }

        let children = sessions.running
        logger.notice("stopping", metadata: ["sessions": "\(children.count)"])
        for child in children {
            child.announceEnd(sentence)
            child.process.hangUp(killAfter: nil)
        }
        await waitUntil(deadline: ContinuousClock.now + configuration.limits.stopGrace) { sessions.running.isEmpty }
        for child in sessions.running {
            child.process.kill()
        }
        await waitUntil(deadline: ContinuousClock.now + .milliseconds(300)) { sessions.running.isEmpty }
        // Let each session send its last line and exit status before its connection goes: it
        // sends them once the child's output has ended (a process the child left behind may
        // hold it a while), so this waits on the sessions' closing, for at most three seconds.
        await waitUntil(deadline: ContinuousClock.now + .seconds(3)) { sessions.allClosed }

        let connections = running.context.connections.withLockedValue { Array($0.values) }
        for connection in connections {
            connection.channel.close(promise: nil)
        }
        try? await running.group.shutdownGracefully()
        logger.notice("stopped")
    }

    private func waitUntil(deadline: ContinuousClock.Instant, _ done: () -> Bool) async {
        while !done(), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
