import Logging
import NIOCore
import NIOSSH

/// Decides what an SSH channel-open request gets: a session (up to the connection's channel
/// limit), or a refusal for forwarding.
enum ChannelOpener {
    static func open(
        _ channel: Channel, type: SSHChannelType, connection: ConnectionState, context: ServerContext
    ) -> EventLoopFuture<Void> {
        switch type {
        case .session:
            guard let peer = connection.peer else {
                return channel.eventLoop.makeFailedFuture(Refused())
            }
            guard connection.channelOpening() else {
                connection.logger.notice(
                    "refused: channel limit reached", metadata: ["limit": "\(context.limits.maxChannelsPerConnection)"])
                return channel.eventLoop.makeFailedFuture(Refused())
            }
            channel.closeFuture.assumeIsolated().whenComplete { _ in connection.channelClosed() }
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    SessionChannelHandler(peer: peer, connection: connection, context: context))
            }
        case .directTCPIP(let target):
            // `ssh -L` and `ssh -W`: the client prints "open failed".
            connection.logger.notice(
                "refused: port forwarding", metadata: ["target": "\(ClientText.printable(target.targetHost, limit: 255)):\(target.targetPort)"])
            return channel.eventLoop.makeFailedFuture(Refused())
        case .forwardedTCPIP:
            connection.logger.notice("refused: forwarded-tcpip channel from a client")
            return channel.eventLoop.makeFailedFuture(Refused())
        }
    }

    struct Refused: Error {}
}
