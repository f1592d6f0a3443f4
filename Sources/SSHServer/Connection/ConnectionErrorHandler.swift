import Logging
import NIOCore
import NIOSSH

/// Last in a connection's pipeline: protocol errors and idleness end the connection.
final class ConnectionErrorHandler: ChannelInboundHandler {
    typealias InboundIn = Any

    private let connection: ConnectionState

    init(connection: ConnectionState) {
        self.connection = connection
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        connection.logger.info("connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            connection.logger.info("closing idle connection")
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }
}
