import Logging
import NIOCore
import NIOSSH

/// Refuses remote port forwarding (`ssh -R`, the tcpip-forward global request); the client
/// prints "remote port forwarding failed".
struct ForwardingRefuser: GlobalRequestDelegate {
    let logger: Logger

    func tcpForwardingRequest(
        _ request: GlobalRequest.TCPForwardingRequest, handler: NIOSSHHandler,
        promise: EventLoopPromise<GlobalRequest.TCPForwardingResponse>
    ) {
        if case .listen(let host, let port) = request {
            logger.notice("refused: remote port forwarding", metadata: ["listen": "\(ClientText.printable(host, limit: 255)):\(port)"])
        }
        promise.fail(ForwardingRefused())
    }

    struct ForwardingRefused: Error {}
}
