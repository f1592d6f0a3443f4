import CPty
import Glibc
import Logging
import NIOCore
import NIOPosix
import NIOSSH

/// One SSH session channel: gathers the client's requests (pty, env, window size), asks the
/// launcher what to run, runs it as a child on its own terminal (or pipes), carries bytes both
/// ways, and reports the child's exit. A client that goes away hangs the child up.
final class SessionChannelHandler: ChannelDuplexHandler {
    typealias InboundIn = SSHChannelData
    typealias OutboundIn = SSHChannelData
    typealias OutboundOut = SSHChannelData

    private enum Phase {
        case negotiating, launching, running, finished
    }

    private let peer: SSHPeer
    private let connection: ConnectionState
    private let server: ServerContext
    private var logger: Logger

    private var phase = Phase.negotiating {
        didSet {
            // While the server starts the session it holds the client's input unread, so the
            // connection's idle clock stops for that time: the client may be typing all along.
            if phase == .launching, oldValue != .launching { connection.launchBegan() }
            if oldValue == .launching, phase != .launching { connection.launchEnded() }
        }
    }
    private var context: ChannelHandlerContext?
    private var terminal: SSHPseudoTerminal?
    private var localeEnvironment: [String: String] = [:]

    private var slot: SessionRegistry.Slot?
    /// The child, once started: from then until the channel closes the registry counts the session as open.
    private var process: ChildProcess?
    private var ioChannels: [Channel] = []
    private var inputChannel: Channel?
    private var streamHandlers: [ProcessStreamHandler] = []
    /// The terminal's master descriptor, for TIOCSWINSZ; owned by the pipe channel, so only
    /// used while that channel is open.
    private var terminalMaster: CInt?
    private var openOutputs = 0
    private var childEnd: SSHSessionEnd?
    private var clientInputEnded = false
    private var pendingClientRead = false
    /// The client's input that arrived before the child's input was connected.
    private var earlyInput: [ByteBuffer] = []
    private var lastClientWrite: EventLoopFuture<Void>?
    private var drainTimer: Scheduled<Void>?
    private var outputSinceDrainCheck = false
    /// Set by `announceEnd`: the session ends with this line (the server is stopping, the key
    /// was revoked).
    private var endLine: String?
    /// Window changes are applied at most once per `resizeInterval` (the last one always), so a
    /// flood of them costs the child a bounded number of SIGWINCHs.
    private var lastResize: NIODeadline?
    private var resizeTimer: Scheduled<Void>?
    private static let resizeInterval = TimeAmount.milliseconds(50)
    /// The launcher's line for how the child ended (`SSHSessionCommand.sentenceAtEnd`).
    private var endSentence: String?
    /// Sees the child's terminal output and sizes (`SSHSessionCommand.outputTap`); told of the
    /// end once, then dropped.
    private var tap: (any SSHSessionTap)?

    /// After the child ends, how long output may keep flowing (a background job holding the
    /// terminal) before the session is closed anyway, checked again while output moves.
    private static let drainCheck = TimeAmount.seconds(1)

    init(peer: SSHPeer, connection: ConnectionState, context: ServerContext) {
        self.peer = peer
        self.connection = connection
        self.server = context
        self.logger = connection.logger
    }

    // MARK: - Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        context.channel.setOption(ChannelOptions.allowRemoteHalfClosure, value: true).assumeIsolated().whenFailure {
            context.fireErrorCaught($0)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        if process != nil { server.sessions.sessionClosed() }
        connection.stopIdleNotices(to: ObjectIdentifier(self))
        resizeTimer?.cancel()
        endTap()
        // A session asked for on this channel (shell, exec or subsystem) took it out of negotiating
        // at once: the connection counts it as holding one until the channel closes.
        if phase != .negotiating { connection.sessionClosed() }
        if phase == .running, let process, !process.hasEnded {
            logger.info("client gone: hanging up the session", metadata: ["pid": "\(process.pid)"])
            process.hangUp(killAfter: server.limits.hangUpGrace)
        }
        phase = .finished
        drainTimer?.cancel()
        closeProcessStreams()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let message = unwrapInboundIn(data)
        connection.clientActed()
        guard case .byteBuffer(let bytes) = message.data, message.type == .channel else { return }
        switch phase {
        case .negotiating, .finished:
            // Before a session is asked for (OpenSSH sends nothing then) or after it: dropped,
            // so a channel that never starts a session buffers nothing.
            return
        case .launching, .running:
            guard let inputChannel else {
                // Delivered by a read asked for while negotiating: kept for the child (at most
                // one delivery, within one channel window), then reads wait for it.
                earlyInput.append(bytes)
                return
            }
            inputChannel.writeAndFlush(bytes, promise: nil)
        }
    }

    func read(context: ChannelHandlerContext) {
        switch phase {
        case .running where inputChannel?.isWritable ?? false, .finished, .negotiating:
            context.read()
        case .launching, .running:
            // Held (not read) until the child can take it: NIOSSH keeps at most one channel
            // window (2 MiB) of it, and the client waits for the window to reopen.
            pendingClientRead = true
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            for handler in streamHandlers { handler.clientBecameWritable() }
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case let request as SSHChannelRequestEvent.PseudoTerminalRequest:
            terminalRequested(request)
        case let request as SSHChannelRequestEvent.EnvironmentRequest:
            let accepted =
                phase == .negotiating && localeEnvironment.count < ClientEnvironment.maximumVariables
                && ClientEnvironment.accepts(name: request.name, value: request.value)
            if accepted { localeEnvironment[request.name] = request.value }
            reply(request.wantReply, success: accepted)
        case let request as SSHChannelRequestEvent.WindowChangeRequest:
            connection.clientActed()
            windowChanged(columns: request.terminalCharacterWidth, rows: request.terminalRowHeight)
        case let request as SSHChannelRequestEvent.ShellRequest:
            connection.clientActed()
            sessionRequested(command: nil, wantReply: request.wantReply)
        case let request as SSHChannelRequestEvent.ExecRequest:
            connection.clientActed()
            sessionRequested(command: request.command, wantReply: request.wantReply)
        case let request as SSHChannelRequestEvent.SubsystemRequest:
            guard phase == .negotiating else { return reply(request.wantReply, success: false) }
            reply(request.wantReply, success: true)
            connection.sessionBegan()
            let name = ClientText.printable(request.subsystem, limit: 64)
            refuse(
                .subsystem, "refused: subsystem", metadata: ["subsystem": "\(name)"],
                saying: "subsystems such as \(name) (sftp, scp) are not offered by this server.")
        case let event as ChannelEvent where event == .inputClosed:
            clientInputEnded = true
            if terminal == nil, let inputChannel { inputChannel.close(mode: .output, promise: nil) }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    // MARK: - Requests

    private func terminalRequested(_ request: SSHChannelRequestEvent.PseudoTerminalRequest) {
        guard phase == .negotiating else { return reply(request.wantReply, success: false) }
        // The pixel sizes are not used: the child's terminal says 0 (unknown) pixels.
        let size = SSHServerLimits.terminalSize(columns: request.terminalCharacterWidth, rows: request.terminalRowHeight)
        terminal = SSHPseudoTerminal(
            term: ClientEnvironment.sanitizedTerm(request.term), columns: size.columns, rows: size.rows)
        reply(request.wantReply, success: true)
    }

    private func windowChanged(columns: Int, rows: Int) {
        guard terminal != nil else { return }
        let size = SSHServerLimits.terminalSize(columns: columns, rows: rows)
        terminal?.columns = size.columns
        terminal?.rows = size.rows
        applyTerminalSize()
    }

    /// Sets the child's terminal to ``terminal``'s size now, or at the end of the current
    /// `resizeInterval` when one was set less than that ago.
    private func applyTerminalSize() {
        guard resizeTimer == nil, let loop = context?.eventLoop else { return }
        let now = NIODeadline.now()
        if let lastResize, now < lastResize + Self.resizeInterval {
            resizeTimer = loop.assumeIsolated().scheduleTask(deadline: lastResize + Self.resizeInterval) {
                self.resizeTimer = nil
                self.applyTerminalSize()
            }
            return
        }
        lastResize = now
        if let terminalMaster, let terminal {
            _ = cpty_set_window_size(terminalMaster, UInt16(terminal.columns), UInt16(terminal.rows))
            tap?.terminalResized(columns: terminal.columns, rows: terminal.rows)
        }
    }

    private func sessionRequested(command: String?, wantReply: Bool) {
        guard phase == .negotiating else { return reply(wantReply, success: false) }
        reply(wantReply, success: true)
        connection.sessionBegan()

        if connection.isRevoked
            || connection.authorizedKey.map({ server.authorizedKeys?.person(for: $0) == nil }) ?? false
        {
            return refuse(
                .keyRevoked, "refused: the key is no longer authorized",
                saying: "your key is no longer authorized on this server: no new session can start.")
        }

        if let command, ClientText.holdsNUL(command) {
            // C strings end at a NUL: the child would be given a shorter word than the one checked.
            return refuse(
                .nulInCommand, "refused: a NUL byte in the command", metadata: ["command": "\(Self.logged(command))"],
                saying: "the command holds a NUL byte, which no program can be given; nothing was run.")
        }
        if command == nil, terminal == nil {
            return refuse(.noTerminal, "refused: shell without a terminal", saying: "this server needs a terminal: connect with `ssh -t`.")
        }
        switch server.sessions.reserve(connectionID: connection.id, source: connection.source, key: peer.keyFingerprint) {
        case .success(let reserved):
            slot = reserved
        case .failure(let refusal):
            let limit = refusal.limit
            let (event, sentence): (Logger.Message, String) =
                switch refusal.reason {
                case .perConnection: ("refused: per-connection session limit reached", "this connection already runs \(limit) sessions.")
                case .perSource:
                    (
                        "refused: per-address session limit reached",
                        "your address already runs \(Self.sessions(limit)), the most one address may; end one and try again."
                    )
                case .perKey:
                    ("refused: per-key session limit reached", "your key already runs \(Self.sessions(limit)), the most one key may; end one and try again.")
                // The server's own limit (.maxSessions), the one other reason reserve gives.
                default: ("refused: session limit reached", "the server is full (\(Self.sessions(limit)) running); try again later.")
                }
            return refuse(refusal.reason, event, metadata: ["limit": "\(limit)"], saying: sentence)
        }
        phase = .launching

        let request = SSHSessionRequest(peer: peer, pseudoTerminal: terminal, localeEnvironment: localeEnvironment, command: command)
        let launcher = server.configuration.launcher
        guard let loop = context?.eventLoop else { return }
        let bound = NIOLoopBound(self, eventLoop: loop)
        Task {
            let decision = await launcher(request)
            loop.execute { bound.value.launcherDecided(decision, request: request) }
        }
    }

    private func launcherDecided(_ decision: SSHSessionDecision, request: SSHSessionRequest) {
        guard phase == .launching, let slot else {
            // The client left while the launcher was deciding: what it prepared is released.
            releaseSlot()
            if case .run(let command) = decision { Self.neverStarted(command) }
            return
        }
        switch decision {
        case .refuse(let sentence, let exitStatus):
            releaseSlot()
            refuse(
                .launcher, "refused: launcher",
                metadata: ["command": "\(Self.logged(request.command))", "reason": "\(ClientText.printable(sentence))"], saying: sentence,
                exitStatus: exitStatus)
        case .wrongGuess(let sentence):
            releaseSlot()
            let closing = connection.guessedWrong()
            refuse(
                .wrongGuess, "refused: wrong guess", metadata: ["command": "\(Self.logged(request.command))", "closing": "\(closing)"],
                saying: closing ? sentence + " Too many wrong guesses: this connection is closed." : sentence)
            if closing { connection.close(after: context?.channel) }
        case .run(let command):
            start(command, request: request, slot: slot)
        }
    }

    // MARK: - Running

    private func start(_ command: SSHSessionCommand, request: SSHSessionRequest, slot: SessionRegistry.Slot) {
        guard let context else {
            releaseSlot()
            return Self.neverStarted(command)
        }
        let spawned: (ChildProcess, ChildSpawner.Streams)
        do {
            spawned = try ChildSpawner.spawn(command, terminal: terminal, template: server.configuration.sessionTemplate)
        } catch {
            releaseSlot()
            logger.error("could not start the session", metadata: ["path": "\(command.executablePath)", "error": "\(error.reason)"])
            SSHServerMetrics.refused(.spawnFailed)
            Self.neverStarted(command)
            return end(saying: "the session could not be started (\(error.reason)).", exitStatus: 127)
        }
        let (process, streams) = spawned
        self.process = process
        phase = .running
        if terminal != nil { tap = command.outputTap }

        let loop = context.eventLoop
        let bound = NIOLoopBound(self, eventLoop: loop)
        let registry = server.sessions
        let onExit = command.onExit
        let sentenceAtEnd = command.sentenceAtEnd
        let logger = self.logger
        let began = ContinuousClock.now
        registry.attach(slot, .init(process: process, announceEnd: { line in loop.execute { bound.value.announceEnd(line) } }))
        connection.receiveIdleNotices(from: ObjectIdentifier(self)) { secondsLeft in
            bound.value.giveIdleNotice(secondsLeft: secondsLeft)
        }
        process.whenEnded { end in
            registry.release(slot)
            logger.info(
                "session ended",
                metadata: [
                    "pid": "\(process.pid)", "end": "\(end.termination)", "hungUp": "\(end.wasHungUp)",
                    "duration": "\(Self.seconds(since: began))",
                ])
            onExit?(end)
            let sentence = sentenceAtEnd?(end)
            loop.execute { bound.value.childEnded(end, sentence: sentence) }
        }
        process.startWatching()
        logger.info(
            "session started",
            metadata: [
                "pid": "\(process.pid)", "command": "\(Self.logged(request.command))",
                "terminal": "\(terminal.map { "\($0.term) \($0.columns)x\($0.rows)" } ?? "none")",
            ])
        connectStreams(streams, bound: bound)
    }

    private func connectStreams(_ streams: ChildSpawner.Streams, bound: NIOLoopBound<SessionChannelHandler>) {
        guard let loop = context?.eventLoop else { return }
        func bootstrap(_ stream: ProcessStreamHandler.Stream) -> NIOPipeBootstrap {
            NIOPipeBootstrap(group: loop)
                .channelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let handler = ProcessStreamHandler(stream: stream, session: bound.value)
                        bound.value.streamHandlers.append(handler)
                        try channel.pipeline.syncOperations.addHandler(handler)
                    }
                }
        }
        switch streams {
        case .terminal(let master):
            openOutputs = 1
            terminalMaster = master
            // A window change that came while the child was starting.
            if let terminal {
                _ = cpty_set_window_size(master, UInt16(terminal.columns), UInt16(terminal.rows))
                tap?.terminalResized(columns: terminal.columns, rows: terminal.rows)
            }
            bootstrap(.output).takingOwnershipOfDescriptor(inputOutput: master).assumeIsolated().whenComplete {
                self.streamConnected($0, isInput: true, descriptors: [master])
            }
        case .pipes(let stdin, let stdout, let stderr):
            openOutputs = 2
            bootstrap(.output).takingOwnershipOfDescriptors(input: stdout, output: stdin).assumeIsolated().whenComplete {
                self.streamConnected($0, isInput: true, descriptors: [stdout, stdin])
            }
            bootstrap(.errors).takingOwnershipOfDescriptor(input: stderr).assumeIsolated().whenComplete {
                self.streamConnected($0, isInput: false, descriptors: [stderr])
            }
        }
    }

    private func streamConnected(_ result: Result<Channel, Error>, isInput: Bool, descriptors: [CInt]) {
        switch result {
        case .success(let channel):
            guard phase == .running else {
                channel.close(promise: nil)
                return
            }
            ioChannels.append(channel)
            if isInput {
                inputChannel = channel
                let early = earlyInput
                earlyInput = []
                for bytes in early { channel.write(bytes, promise: nil) }
                channel.flush()
                if clientInputEnded, terminal == nil { channel.close(mode: .output, promise: nil) }
                processInputBecameWritable()
            }
        case .failure(let error):
            // The descriptors are still ours when the bootstrap fails.
            for descriptor in descriptors { _ = Glibc.close(descriptor) }
            if isInput { terminalMaster = nil }
            logger.error("could not connect the session's streams", metadata: ["error": "\(error)"])
            process?.kill()
            processOutputEnded()
        }
    }

    /// From a ProcessStreamHandler: the child wrote to its terminal, stdout or stderr.
    func processWrote(_ bytes: ByteBuffer, on stream: ProcessStreamHandler.Stream) {
        guard phase == .running, let context else { return }
        outputSinceDrainCheck = true
        let promise = context.eventLoop.makePromise(of: Void.self)
        let type: SSHChannelData.DataType = stream == .errors ? .stdErr : .channel
        if let tap, stream == .output { bytes.withUnsafeReadableBytes { tap.childWrote($0) } }
        context.write(wrapOutboundOut(SSHChannelData(type: type, data: .byteBuffer(bytes))), promise: promise)
        lastClientWrite = promise.futureResult
    }

    func flushToClient() { context?.flush() }

    var clientIsWritable: Bool { context?.channel.isWritable ?? false }

    func processInputBecameWritable() {
        guard pendingClientRead, phase == .running, inputChannel?.isWritable ?? false, let context else { return }
        pendingClientRead = false
        context.read()
    }

    func processOutputEnded() {
        openOutputs -= 1
        if openOutputs == 0 { terminalMaster = nil }
        finishIfDone()
    }

    private func childEnded(_ end: SSHSessionEnd, sentence: String?) {
        childEnd = end
        endSentence = sentence
        finishIfDone()
    }

    private func finishIfDone() {
        guard phase == .running, let end = childEnd else { return }
        if openOutputs > 0 {
            armDrainTimer()
        } else {
            finish(end.termination)
        }
    }

    private func armDrainTimer() {
        guard drainTimer == nil, let loop = context?.eventLoop else { return }
        outputSinceDrainCheck = false
        drainTimer = loop.assumeIsolated().scheduleTask(in: Self.drainCheck) {
            self.drainTimer = nil
            guard self.phase == .running, let end = self.childEnd else { return }
            if self.outputSinceDrainCheck || self.streamHandlers.contains(where: \.isHoldingRead) {
                self.armDrainTimer()
            } else {
                self.finish(end.termination)
            }
        }
    }

    /// The server is about to hang the child up (it is stopping, the key was revoked). The
    /// line saying so is written when the child's output has ended (`finish`): written now, it
    /// would land on the app's alternate screen, which the app leaves as it exits, and nobody
    /// would see it.
    func announceEnd(_ sentence: String) {
        guard phase == .running else { return }
        endLine = sentence
    }

    /// The connection will be closed for idleness in `secondsLeft` seconds: the configured
    /// signal to a terminal session's child, else one line on stderr.
    func giveIdleNotice(secondsLeft: Int) {
        guard phase == .running, let context else { return }
        if terminal != nil, let signal = server.configuration.idleNoticeSignal, let process, !process.hasEnded {
            logger.info("idle: signalling the session", metadata: ["pid": "\(process.pid)", "signal": "\(signal)"])
            process.send(signal)
            return
        }
        writeError(newline + server.clientLine("no input for a while: this session ends in \(secondsLeft) s unless something is typed.") + newline)
        context.flush()
    }

    // MARK: - Ending

    private func finish(_ termination: SSHSessionEnd.Termination) {
        phase = .finished
        drainTimer?.cancel()
        closeProcessStreams()
        endTap()
        guard let context else { return }
        if let said = endLine ?? endSentence {
            let promise = context.eventLoop.makePromise(of: Void.self)
            writeError(newline + server.clientLine(said) + newline, promise: promise)
            lastClientWrite = promise.futureResult
        }
        context.flush()
        let written = lastClientWrite ?? context.eventLoop.makeSucceededVoidFuture()
        written.assumeIsolated().whenComplete { _ in
            self.sendExitAndClose(termination)
        }
    }

    /// Ends the session without running anything: one line on stderr, an exit status, close.
    private func end(saying sentence: String, exitStatus: Int) {
        phase = .finished
        guard let context else { return }
        writeError(server.clientLine(sentence) + newline)
        context.flush()
        sendExitAndClose(.exited(status: exitStatus))
    }

    /// Refuses the session: a line in the log, the refusal counted, the sentence to the client.
    private func refuse(
        _ reason: SSHServerMetrics.SessionRefusal, _ event: Logger.Message, metadata: Logger.Metadata? = nil, saying sentence: String,
        exitStatus: Int = 1
    ) {
        logger.notice(event, metadata: metadata)
        SSHServerMetrics.refused(reason)
        end(saying: sentence, exitStatus: exitStatus)
    }

    /// The line ending the client's terminal needs: CR LF on a terminal, LF on pipes.
    private var newline: String { terminal == nil ? "\n" : "\r\n" }

    /// Writes `line` on the session's stderr (the caller flushes).
    private func writeError(_ line: String, promise: EventLoopPromise<Void>? = nil) {
        context?.write(wrapOutboundOut(SSHChannelData(type: .stdErr, data: .byteBuffer(ByteBuffer(string: line)))), promise: promise)
    }

    private func releaseSlot() {
        slot.map(server.sessions.release)
        slot = nil
    }

    private func sendExitAndClose(_ termination: SSHSessionEnd.Termination) {
        guard let context else { return }
        context.triggerUserOutboundEvent(ExitReport.event(for: termination), promise: nil)
        context.close(mode: .output, promise: nil)
        context.close(promise: nil)
    }

    private func endTap() {
        tap?.sessionEnded()
        tap = nil
    }

    private func closeProcessStreams() {
        for channel in ioChannels { channel.close(promise: nil) }
        ioChannels = []
        inputChannel = nil
        terminalMaster = nil
    }

    private func reply(_ wantReply: Bool, success: Bool) {
        guard wantReply else { return }
        context?.triggerUserOutboundEvent(success ? ChannelSuccessEvent() as Any : ChannelFailureEvent(), promise: nil)
    }

    /// The launcher's command was never run: its `onExit` still runs, once, so what the
    /// launcher prepared for it (a demo folder, a recording's file) is removed or closed.
    private static func neverStarted(_ command: SSHSessionCommand) {
        command.outputTap?.sessionEnded()
        command.onExit?(SSHSessionEnd(termination: .exited(status: 255), wasHungUp: true))
    }

    /// "1 session", "8 sessions".
    private static func sessions(_ count: Int) -> String {
        "\(count) session\(count == 1 ? "" : "s")"
    }

    private static func logged(_ command: String?) -> String {
        guard let command else { return "(shell)" }
        return ClientText.printable(command, limit: 200)
    }

    /// A session's duration for the log: seconds with milliseconds, `83.412`.
    static func seconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        return "\(milliseconds / 1000).\(String(format: "%03d", Int(milliseconds % 1000)))"
    }
}
