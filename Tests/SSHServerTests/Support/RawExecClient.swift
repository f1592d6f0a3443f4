import Foundation
import NIOCore
import NIOPosix
import NIOSSH

/// A bare swift-nio-ssh client for what the OpenSSH client cannot send: a login name or an exec
/// command holding bytes a C string cannot carry (NUL) or that OpenSSH refuses (ESC in a user
/// name). It logs in with a password (the open policy takes it), sends one exec request
/// exactly as given, and returns what came back on stderr and the exit status.
enum RawExecClient {
    struct Result: Sendable {
        var exitStatus: Int?
        var stdout: String
        var stderr: String
    }

    static func run(port: Int, login: String, command: String, timeout: Duration = .seconds(10)) async throws -> Result {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let result = try await exchange(on: group, port: port, login: login, command: command, timeout: timeout)
            try? await group.shutdownGracefully()
            return result
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    private static func exchange(
        on group: MultiThreadedEventLoopGroup, port: Int, login: String, command: String, timeout: Duration
    ) async throws -> Result {
        let finished = group.next().makePromise(of: Result.self)
        let channel = try await ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        NIOSSHHandler(
                            role: .client(
                                .init(userAuthDelegate: RawPasswordLogin(login: login), serverAuthDelegate: RawAnyHostKey())),
                            allocator: channel.allocator, inboundChildChannelInitializer: nil))
                }
            }
            .connect(host: "127.0.0.1", port: port).get()
        try await channel.eventLoop.submit {
            let ssh = try channel.pipeline.syncOperations.handler(type: NIOSSHHandler.self)
            ssh.createChannel(nil, channelType: .session) { child, _ in
                child.eventLoop.makeCompletedFuture {
                    try child.pipeline.syncOperations.addHandler(ExecHandler(command: command, finished: finished))
                }
            }
        }.get()
        let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            finished.fail(TimedOut(what: "the exec request's answer"))
        }
        defer { timer.cancel() }
        let result = try await finished.futureResult.get()
        try? await channel.close()
        return result
    }

    /// Sends the exec request when the session channel is up; gathers output until it closes.
    private final class ExecHandler: ChannelInboundHandler {
        typealias InboundIn = SSHChannelData

        let command: String
        let finished: EventLoopPromise<Result>
        private var result = Result(exitStatus: nil, stdout: "", stderr: "")

        init(command: String, finished: EventLoopPromise<Result>) {
            self.command = command
            self.finished = finished
        }

        func handlerAdded(context: ChannelHandlerContext) {
            context.channel.setOption(ChannelOptions.allowRemoteHalfClosure, value: true).whenComplete { _ in }
            context.triggerUserOutboundEvent(SSHChannelRequestEvent.ExecRequest(command: command, wantReply: false), promise: nil)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let message = unwrapInboundIn(data)
            guard case .byteBuffer(let bytes) = message.data else { return }
            let text = String(buffer: bytes)
            if message.type == .stdErr { result.stderr += text } else { result.stdout += text }
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let status = event as? SSHChannelRequestEvent.ExitStatus { result.exitStatus = status.exitStatus }
            if let event = event as? ChannelEvent, event == .inputClosed { context.close(promise: nil) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            finished.succeed(result)
        }
    }
}
