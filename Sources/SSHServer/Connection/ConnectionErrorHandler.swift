import Logging
import NIOCore
import NIOSSH

/// Last in a connection's pipeline: protocol errors end the connection.
final class ConnectionErrorHandler: ChannelInboundHandler {
    typealias InboundIn = Any

    private let connection: ConnectionState

    init(connection: ConnectionState) {
        self.connection = connection
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let ssh = error as? NIOSSHError, ssh.type == .invalidPacketFormat, connection.peer != nil {
            // swift-nio-ssh 0.15.1 cannot skip a channel request it does not know when it carries
            // data (apple/swift-nio-ssh#221); OpenSSH's X11 request is the common one.
            connection.logger.notice(
                "closing: the client sent a request the SSH library cannot read, most likely X11 forwarding",
                metadata: ["hint": "connect with `ssh -x` (or ForwardX11 no)"])
        } else {
            connection.logger.info("connection error", metadata: ["error": "\(ClientText.printable("\(error)", limit: 500))"])
        }
        context.close(promise: nil)
    }
}
