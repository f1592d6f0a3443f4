import Foundation
import NIOCore
import NIOPosix
import NIOSSH

/// A bare swift-nio-ssh client that keeps its connection open and sends what OpenSSH never
/// would: terminal sizes of 65535, floods of window-changes, more channels than a
/// client needs, a connection kept after its command was refused. Logs in with a password (the
/// open policy takes it), from any 127.x.y.z address.
final class RawSSHConnection: @unchecked Sendable {
    enum Step: Sendable {
        case pty(columns: Int, rows: Int, pixelWidth: Int = 0, pixelHeight: Int = 0)
        case windowChange(columns: Int, rows: Int, pixelWidth: Int = 0, pixelHeight: Int = 0)
        case exec(String)
        case shell
        case data(String)
    }

    private let group: MultiThreadedEventLoopGroup
    let channel: Channel

    private init(group: MultiThreadedEventLoopGroup, channel: Channel) {
        self.group = group
        self.channel = channel
    }

    static func connect(
        port: Int, from source: String = "127.0.0.1", login: String = "visitor", loginDelay: TimeAmount = .zero
    ) async throws -> RawSSHConnection {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            let channel = try await ClientBootstrap(group: group)
                .bind(to: try SocketAddress(ipAddress: source, port: 0))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSHHandler(
                                role: .client(.init(userAuthDelegate: RawPasswordLogin(login: login, delay: loginDelay), serverAuthDelegate: RawAnyHostKey())),
                                allocator: channel.allocator, inboundChildChannelInitializer: nil))
                    }
                }
                .connect(host: "127.0.0.1", port: port).get()
            return RawSSHConnection(group: group, channel: channel)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Opens a session channel and sends `steps` in order; nil when the server refused the channel.
    func session(_ steps: [Step]) async throws -> RawSession? {
        let session = RawSession()
        let opened = channel.eventLoop.makePromise(of: Channel.self)
        let channel = self.channel
        do {
            try await channel.eventLoop.submit {
                let ssh = try channel.pipeline.syncOperations.handler(type: NIOSSHHandler.self)
                ssh.createChannel(opened, channelType: .session) { child, _ in
                    child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.addHandler(SessionHandler(session: session, steps: steps))
                    }
                }
            }.get()
        } catch {
            // The connection was already gone (its handler removed): the promise was never
            // handed to NIOSSH, and a promise left uncompleted is a fatal error in debug NIO.
            opened.fail(error)
            throw error
        }
        do {
            _ = try await opened.futureResult.get()
        } catch {
            return nil
        }
        return session
    }

    /// Writes `count` session channel-opens at once, before any answer (as a paramiko client can),
    /// and returns the sessions the server confirmed.
    func sessionsAtOnce(_ count: Int) async throws -> [RawSession] {
        let channel = self.channel
        let pending: [(RawSession, EventLoopFuture<Channel>)] = try await channel.eventLoop.submit {
            let ssh = try channel.pipeline.syncOperations.handler(type: NIOSSHHandler.self)
            return (0..<count).map { _ in
                let session = RawSession()
                let opened = channel.eventLoop.makePromise(of: Channel.self)
                ssh.createChannel(opened, channelType: .session) { child, _ in
                    child.eventLoop.makeCompletedFuture {
                        try child.pipeline.syncOperations.addHandler(SessionHandler(session: session, steps: []))
                    }
                }
                return (session, opened.futureResult)
            }
        }.get()
        var confirmed: [RawSession] = []
        for (session, opened) in pending where (try? await opened.get()) != nil {
            confirmed.append(session)
        }
        return confirmed
    }

    /// Waits until the server closes the connection; throws after `timeout`.
    func waitForClose(timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while channel.isActive {
            if ContinuousClock.now > deadline { throw TimedOut(what: "the server to close the connection") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    var isOpen: Bool { channel.isActive }

    func close() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }

    private final class SessionHandler: ChannelInboundHandler {
        typealias InboundIn = SSHChannelData
        typealias OutboundOut = SSHChannelData

        let session: RawSession
        let steps: [Step]

        init(session: RawSession, steps: [Step]) {
            self.session = session
            self.steps = steps
        }

        func handlerAdded(context: ChannelHandlerContext) {
            context.channel.setOption(ChannelOptions.allowRemoteHalfClosure, value: true).whenComplete { _ in }
            for step in steps {
                switch step {
                case .pty(let columns, let rows, let pixelWidth, let pixelHeight):
                    context.triggerUserOutboundEvent(
                        SSHChannelRequestEvent.PseudoTerminalRequest(
                            wantReply: false, term: "xterm", terminalCharacterWidth: columns, terminalRowHeight: rows,
                            terminalPixelWidth: pixelWidth, terminalPixelHeight: pixelHeight, terminalModes: SSHTerminalModes([:])),
                        promise: nil)
                case .windowChange(let columns, let rows, let pixelWidth, let pixelHeight):
                    context.triggerUserOutboundEvent(
                        SSHChannelRequestEvent.WindowChangeRequest(
                            terminalCharacterWidth: columns, terminalRowHeight: rows, terminalPixelWidth: pixelWidth,
                            terminalPixelHeight: pixelHeight),
                        promise: nil)
                case .exec(let command):
                    context.triggerUserOutboundEvent(SSHChannelRequestEvent.ExecRequest(command: command, wantReply: false), promise: nil)
                case .shell:
                    context.triggerUserOutboundEvent(SSHChannelRequestEvent.ShellRequest(wantReply: false), promise: nil)
                case .data(let text):
                    context.write(
                        NIOAny(SSHChannelData(type: .channel, data: .byteBuffer(ByteBuffer(string: text)))), promise: nil)
                }
            }
            context.flush()
            session.attach(context.channel)
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let message = unwrapInboundIn(data)
            guard case .byteBuffer(let bytes) = message.data else { return }
            session.received(String(buffer: bytes), errors: message.type == .stdErr)
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let status = event as? SSHChannelRequestEvent.ExitStatus { session.exited(status.exitStatus) }
            if let event = event as? ChannelEvent, event == .inputClosed { context.close(promise: nil) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            session.closed()
        }
    }
}

/// One session channel of a ``RawSSHConnection``: what came back, as it comes.
final class RawSession: @unchecked Sendable {
    private let lock = NSLock()
    private var output = ""
    private var errors = ""
    private var status: Int?
    private var isClosed = false
    private var channel: Channel?

    var stdout: String { lock.withLock { output } }
    var stderr: String { lock.withLock { errors } }
    var exitStatus: Int? { lock.withLock { status } }
    var hasClosed: Bool { lock.withLock { isClosed } }

    fileprivate func attach(_ channel: Channel) { lock.withLock { self.channel = channel } }
    fileprivate func received(_ text: String, errors isError: Bool) {
        lock.withLock { if isError { errors += text } else { output += text } }
    }
    fileprivate func exited(_ value: Int) { lock.withLock { status = value } }
    fileprivate func closed() { lock.withLock { isClosed = true } }

    /// Sends a window-change on this session.
    func windowChange(columns: Int, rows: Int) {
        guard let channel = lock.withLock({ channel }) else { return }
        channel.triggerUserOutboundEvent(
            SSHChannelRequestEvent.WindowChangeRequest(
                terminalCharacterWidth: columns, terminalRowHeight: rows, terminalPixelWidth: 0, terminalPixelHeight: 0),
            promise: nil)
    }

    /// Sends bytes to the session's input.
    func send(_ text: String) {
        guard let channel = lock.withLock({ channel }) else { return }
        channel.writeAndFlush(SSHChannelData(type: .channel, data: .byteBuffer(ByteBuffer(string: text))), promise: nil)
    }

    /// Sends `count` bytes to the session's input and waits until the SSH layer has sent them
    /// all, which it does only as the server opens its window: a server holding them stalls this.
    func sendAll(_ count: Int, timeout: Duration = .seconds(10)) async throws {
        guard let channel = lock.withLock({ channel }) else { return }
        let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 32768)
        var last: EventLoopFuture<Void>?
        for _ in 0..<(count / 32768) {
            last = channel.writeAndFlush(SSHChannelData(type: .channel, data: .byteBuffer(chunk)))
        }
        guard let last else { return }
        let sent = Collector<Bool>()
        last.whenComplete { _ in sent.append(true) }
        let deadline = ContinuousClock.now + timeout
        while sent.all.isEmpty {
            if ContinuousClock.now > deadline { throw TimedOut(what: "the server to take \(count) bytes") }
            try await Task.sleep(for: .milliseconds(20))
        }
        try await last.get()
    }

    /// Waits for `text`, sending a newline every 100 ms meanwhile: the server's idle clock counts
    /// from the client's last input, so a start slowed by a loaded machine is never taken for
    /// idleness.
    func waitForOutputWhileTyping(_ text: String, timeout: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !(stdout + stderr).contains(text) {
            if ContinuousClock.now > deadline || hasClosed {
                throw TimedOut(what: "\(text.debugDescription) from the session; got \(stdout.debugDescription) \(stderr.debugDescription)")
            }
            send("\n")
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    func waitForOutput(_ text: String, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !(stdout + stderr).contains(text) {
            if ContinuousClock.now > deadline {
                throw TimedOut(what: "\(text.debugDescription) from the session; got \(stdout.debugDescription) \(stderr.debugDescription)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Closes the channel and waits until the server has closed it too.
    func close() async {
        guard let channel = lock.withLock({ channel }) else { return }
        try? await channel.close()
        try? await channel.closeFuture.get()
    }

    func waitForClose(timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !hasClosed {
            if ContinuousClock.now > deadline { throw TimedOut(what: "the session to close; got \(stdout.debugDescription)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
