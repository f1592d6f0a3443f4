import Logging
import NIOCore
import NIOSSH

/// Sets up one accepted TCP connection: admission, timers, the SSH handler and its channels.
enum ConnectionInitializer {
    static func initialize(_ channel: Channel, context: ServerContext) throws {
        let address = channel.remoteAddress
        let source = address?.ipAddress.map(SourceAddress.group) ?? "unknown"
        // `[::1]:53122` for IPv6, so the address and the port cannot be read as one (fail2ban's <HOST>).
        let remote = address.map { SourceAddress.withPort($0.ipAddress ?? "?", $0.port ?? 0) } ?? "unknown"

        if let refusal = context.admission.admit(source: source) {
            context.logger.notice("refused connection", metadata: ["address": "\(remote)", "reason": "\(refusal)"])
            SSHServerMetrics.refused(refusal.reason)
            channel.close(promise: nil)
            return
        }

        let connection = ConnectionState(
            id: context.nextConnectionID(), remoteAddress: remote, source: source, logger: context.logger,
            admission: context.admission, channel: channel, limits: context.limits)
        connection.logger.info("connected")
        SSHServerMetrics.accepted()
        context.connections.withLockedValue {
            $0[connection.id] = ServerContext.Connection(
                channel: channel, state: NIOLoopBound(connection, eventLoop: channel.eventLoop))
        }
        connection.started()
        channel.closeFuture.assumeIsolated().whenComplete { _ in
            connection.closed()
            _ = context.connections.withLockedValue { $0.removeValue(forKey: connection.id) }
            if let peer = connection.peer {
                connection.logger.info("disconnected", metadata: ["person": "\(peer.name)"])
            } else {
                connection.endedBeforeAuthenticating()
                connection.logger.info(
                    "disconnected before authenticating",
                    metadata: ["hint": "RSA and DSA keys are not supported: use an Ed25519 or ECDSA key"])
            }
        }

        var server = NIOSSH.SSHServerConfiguration(
            hostKeys: [context.hostKey.privateKey],
            userAuthDelegate: AuthenticationDelegate(context: context, connection: connection),
            globalRequestDelegate: ForwardingRefuser(logger: connection.logger))
        // NIOSSH counts every request: "none", then a query and a signed attempt per key.
        server.maxAuthAttempts = 2 * context.limits.maxAuthTries + 1
        // OpenSSH's packet size: each channel's window is 64 packets, 2 MiB, the most of the
        // client's input one channel buffers (NIOSSH's default would be 8 MiB).
        server.maximumPacketSize = 32768

        let ssh = NIOSSHHandler(
            role: .server(server), allocator: channel.allocator,
            inboundChildChannelInitializer: { child, type in
                ChannelOpener.open(child, type: type, connection: connection, context: context)
            })
        let handlers = channel.pipeline.syncOperations
        try handlers.addHandler(ssh)
        try handlers.addHandler(ConnectionErrorHandler(connection: connection))
    }
}
