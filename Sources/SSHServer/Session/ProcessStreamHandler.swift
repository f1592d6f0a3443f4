import NIOCore

/// Sits in a pipe channel on a child's descriptor (the terminal master, or the stdout/stdin
/// pair, or stderr) and hands what it reads to the session, reading only while the SSH
/// channel can take more (so a slow client slows the child instead of filling memory).
final class ProcessStreamHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    enum Stream {
        case output
        case errors
    }

    private let stream: Stream
    private weak var session: SessionChannelHandler?
    private var context: ChannelHandlerContext?
    private var pendingRead = false
    private var ended = false

    init(stream: Stream, session: SessionChannelHandler) {
        self.stream = stream
        self.session = session
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        endOfOutput()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        session?.processWrote(unwrapInboundIn(data), on: stream)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        session?.flushToClient()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, case .inputClosed = event {
            endOfOutput()
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// A terminal master reads EIO once the child side is closed: that is its end of file.
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        endOfOutput()
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        endOfOutput()
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            session?.processInputBecameWritable()
        }
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if session?.clientIsWritable ?? true {
            context.read()
        } else {
            pendingRead = true
        }
    }

    /// The SSH channel can take more: read again if a read was held back.
    func clientBecameWritable() {
        guard pendingRead, let context else { return }
        pendingRead = false
        context.read()
    }

    var isHoldingRead: Bool { pendingRead }

    private func endOfOutput() {
        guard !ended else { return }
        ended = true
        session?.processOutputEnded()
    }
}
