import NIOCore
import NIOHTTP1

/// Answers one request on a connection, then closes it: `GET`/`HEAD` of `/metrics`,
/// `/healthz` and `/readyz`; 404 for any other path, 405 for any other method. The request is
/// parsed by NIOHTTP1 (the pipeline's decoder); nothing here reads bytes.
final class MetricsHTTPHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let pages: MetricsPages
    private var head: HTTPRequestHead?
    private var answered = false

    init(pages: MetricsPages) {
        self.pages = pages
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
        case .body:
            break
        case .end:
            guard let head, !answered else { return }
            answered = true
            respond(to: head, context: context)
        }
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let page: MetricsPages.Page
        if request.method == .GET || request.method == .HEAD {
            let path = request.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            page = pages.page(for: path)
        } else {
            page = .init(status: .methodNotAllowed, body: "only GET and HEAD\n", extraHeaders: [("Allow", "GET, HEAD")])
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: page.contentType)
        headers.add(name: "Content-Length", value: String(page.body.utf8.count))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-store")
        for (name, value) in page.extraHeaders { headers.add(name: name, value: value) }
        let responseHead = HTTPResponseHead(version: request.version, status: page.status, headers: headers)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        if request.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: page.body)))), promise: nil)
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

/// Closes a connection whose client sends more than `limit` bytes: a request here is a request
/// head alone (no method taken has a body, and each connection answers one request), so this
/// bounds what one client can make the decoder hold.
final class RequestSizeLimit: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let limit: Int
    private var received = 0

    init(limit: Int) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        received += bytes.readableBytes
        guard received <= limit else {
            context.close(promise: nil)
            return
        }
        context.fireChannelRead(data)
    }
}
