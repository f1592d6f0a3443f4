import Logging
import NIOCore
import NIOSSH

/// One TCP connection's state, confined to its event loop: who it is once authenticated,
/// whether it still holds a start-up slot, its channels and sessions, and the timers that
/// close it when it holds no session (no connection is parked) or its person is idle.
final class ConnectionState {
    let id: Int
    let remoteAddress: String
    /// The client's IP address, what the per-source limits count.
    let source: String
    private(set) var peer: SSHPeer?
    /// The authorized_keys key that let it in (team mode), checked again at every session.
    private(set) var authorizedKey: NIOSSHPublicKey?
    private(set) var logger: Logger
    private var holdsStartupSlot = true
    private let admission: ConnectionAdmission
    private let channel: Channel
    private let limits: SSHServerLimits

    /// Sessions asked for and not yet closed (launching, running, or saying their refusal).
    private var sessions = 0
    private var openChannels = 0
    /// Armed while no session is running: closes the connection after the grace.
    private var noSessionTimer: Scheduled<Void>?
    /// Set when the key that let it in left the authorized keys: no new session.
    private(set) var isRevoked = false
    /// Set once the TCP connection closed: sessions closing after it arm no timer.
    private var isClosed = false

    /// The login name of the client's first authentication request, and how many of its tries
    /// were refused: what ``endedBeforeAuthenticating()`` says of a client that never got in.
    private var loginAsked: String?
    private var refusedTries = 0

    /// Wrong guesses of a secret made on this connection (``SSHServerLimits/maxWrongGuesses``).
    private var wrongGuesses = 0

    private var lastInput = NIODeadline.now()
    private var idleTimer: Scheduled<Void>?
    /// Sessions the server is still starting: their input waits unread, so none of that time is idle.
    private var launching = 0
    private var idleNoticeGiven = false
    /// The running sessions' ways of telling their person the connection is about to close.
    private var idleNoticeReceivers: [ObjectIdentifier: (_ secondsLeft: Int) -> Void] = [:]

    init(
        id: Int, remoteAddress: String, source: String, logger: Logger, admission: ConnectionAdmission, channel: Channel,
        limits: SSHServerLimits
    ) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.source = source
        self.admission = admission
        self.channel = channel
        self.limits = limits
        var logger = logger
        logger[metadataKey: "connection"] = "\(id)"
        logger[metadataKey: "address"] = "\(remoteAddress)"
        self.logger = logger
    }

    func authenticated(as peer: SSHPeer, key: NIOSSHPublicKey?) {
        self.peer = peer
        self.authorizedKey = key
        logger[metadataKey: "person"] = "\(peer.name)"
    }

    /// The client asked to log in as `loginName` (its "none" request, before any method).
    func askedToLogIn(as loginName: String) {
        if loginAsked == nil { loginAsked = loginName }
    }

    /// A key or a password was refused.
    func authenticationRefused(loginName: String) {
        askedToLogIn(as: loginName)
        refusedTries += 1
    }

    /// The connection closed before authenticating. A client that asked to log in and was
    /// refused at every try it had (swift-nio-ssh ends it at the next), or that offered nothing
    /// the server takes (a password, an RSA key), failed to log in: one line says so (each key
    /// refused said so already). A client that never asked (a port probe) says nothing here.
    func endedBeforeAuthenticating() {
        guard let loginAsked else { return }
        if refusedTries >= limits.maxAuthTries {
            logger.notice(
                "authentication refused: too many tries",
                metadata: ["login": "\(loginAsked)", "tries": "\(refusedTries)", "reason": "every try the server allows (--max-auth-tries) was refused"])
        } else if refusedTries == 0 {
            logger.notice(
                "authentication refused: nothing the server accepts was offered",
                metadata: ["login": "\(loginAsked)", "reason": "no Ed25519 or ECDSA key was offered (a password, an RSA key or none)"])
        }
    }

    /// Starts the login grace; the idle clock starts with the first session.
    func started() {
        armNoSessionTimer(firstSession: true)
    }

    // MARK: - Sessions and channels

    /// A channel may open unless the connection already holds the most it may.
    func channelOpening() -> Bool {
        guard openChannels < limits.maxChannelsPerConnection else { return false }
        openChannels += 1
        clientActed()
        return true
    }

    func channelClosed() {
        openChannels -= 1
    }

    /// The client asked for a session (shell, exec or subsystem): it is no longer starting up,
    /// and is not closed for holding none while that session lasts.
    func sessionBegan() {
        sessions += 1
        noSessionTimer?.cancel()
        noSessionTimer = nil
        releaseStartupSlot()
        // Until now the login grace judged the connection (a login or a handshake slowed by a
        // loaded host or a slow link is not idleness); from now on, the idle clock.
        clientActed()
        if limits.idleTimeout != nil, idleTimer == nil { scheduleIdleCheck() }
    }

    /// A session's channel closed. A connection left with none is closed after the grace
    /// (at once when its key was revoked).
    func sessionClosed() {
        sessions -= 1
        guard sessions == 0, !isClosed else { return }
        if isRevoked {
            logger.notice("closing: the key that let this connection in is no longer authorized")
            channel.close(promise: nil)
        } else {
            armNoSessionTimer(firstSession: false)
        }
    }

    private func armNoSessionTimer(firstSession: Bool) {
        noSessionTimer?.cancel()
        let grace = limits.loginGraceTime
        noSessionTimer = channel.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(grace)) { [self] in
            noSessionTimer = nil
            guard sessions == 0 else { return }
            if firstSession {
                logger.notice(
                    "closing: no session started within the login grace time",
                    metadata: ["seconds": "\(grace.components.seconds)", "authenticated": "\(peer != nil)"])
            } else {
                logger.notice(
                    "closing: no session running for the login grace time",
                    metadata: ["seconds": "\(grace.components.seconds)"])
            }
            channel.close(promise: nil)
        }
    }

    // MARK: - Wrong guesses

    /// A session named a secret that opens nothing: counted for the connection and its address.
    /// True when either has now made as many as it may: the connection is to be closed.
    func guessedWrong() -> Bool {
        wrongGuesses += 1
        let sourceAtLimit = admission.wrongGuess(source: source)
        let closing = wrongGuesses >= limits.maxWrongGuesses || sourceAtLimit
        if closing {
            logger.notice(
                "closing: too many wrong guesses",
                metadata: ["guesses": "\(wrongGuesses)", "addressAtLimit": "\(sourceAtLimit)"])
        }
        return closing
    }

    /// Closes the connection once `session` (a channel ending with its refusal) has closed, so
    /// the client reads why; within two seconds whatever the client does.
    func close(after session: Channel?) {
        let channel = self.channel
        channel.eventLoop.assumeIsolated().scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
        guard let session else { return channel.close(promise: nil) }
        session.closeFuture.whenComplete { _ in channel.close(promise: nil) }
    }

    // MARK: - Revocation

    /// After a reload: if the key that let this connection in is gone from `store`, it can start
    /// no new session; with no session running it is closed now; with
    /// ``SSHServerLimits/revokeEndsSessions`` its running sessions (in `registry`) are told why
    /// and hung up.
    func revalidate(against store: AuthorizedKeysStore, sessions registry: SessionRegistry) {
        guard !isRevoked, let authorizedKey, store.person(for: authorizedKey) == nil else { return }
        isRevoked = true
        logger.notice("key revoked: this connection can start no new session", metadata: ["sessions": "\(sessions)"])
        if sessions == 0 {
            logger.notice("closing: the key that let this connection in is no longer authorized")
            channel.close(promise: nil)
        } else if limits.revokeEndsSessions {
            let running = registry.running(connectionID: id)
            for child in running {
                child.announceEnd("your key is no longer authorized: this session is ended.")
                child.process.hangUp(killAfter: limits.hangUpGrace)
            }
            logger.notice("key revoked: hanging up the connection's sessions", metadata: ["sessions": "\(running.count)"])
        }
    }

    // MARK: - Idleness

    /// The client acted: it opened a channel, or sent a session keys, data, a window change or a
    /// new request (and a session it asked for has started: ``launchEnded()``).
    func clientActed() {
        lastInput = .now()
        idleNoticeGiven = false
    }

    func launchBegan() {
        launching += 1
    }

    /// A session started, or its start was refused: the idle clock counts from here.
    func launchEnded() {
        launching -= 1
        clientActed()
    }

    func receiveIdleNotices(from session: ObjectIdentifier, _ receiver: @escaping (_ secondsLeft: Int) -> Void) {
        idleNoticeReceivers[session] = receiver
    }

    func stopIdleNotices(to session: ObjectIdentifier) {
        idleNoticeReceivers[session] = nil
    }

    /// The lead of the idle notice: ``SSHServerLimits/idleNoticeLead``, or half the timeout.
    private var idleNoticeLead: TimeAmount {
        guard let timeout = limits.idleTimeout else { return .zero }
        return min(TimeAmount(limits.idleNoticeLead), .nanoseconds(TimeAmount(timeout).nanoseconds / 2))
    }

    private func scheduleIdleCheck() {
        guard let timeout = limits.idleTimeout else { return }
        let end = lastInput + TimeAmount(timeout)
        let next = idleNoticeGiven ? end : end - idleNoticeLead
        idleTimer = channel.eventLoop.assumeIsolated().scheduleTask(deadline: next) { [self] in
            idleCheck()
        }
    }

    private func idleCheck() {
        guard let timeout = limits.idleTimeout, channel.isActive else { return }
        if launching > 0 { clientActed() }
        let now = NIODeadline.now()
        let end = lastInput + TimeAmount(timeout)
        if now >= end {
            logger.info("closing idle connection", metadata: ["seconds": "\(timeout.components.seconds)"])
            channel.close(promise: nil)
            return
        }
        if !idleNoticeGiven, now >= end - idleNoticeLead {
            idleNoticeGiven = true
            let secondsLeft = max(1, Int(((end - now).nanoseconds + 999_999_999) / 1_000_000_000))
            logger.info("idle: notice given", metadata: ["secondsLeft": "\(secondsLeft)", "sessions": "\(idleNoticeReceivers.count)"])
            for receiver in idleNoticeReceivers.values { receiver(secondsLeft) }
        }
        scheduleIdleCheck()
    }

    // MARK: - End

    func closed() {
        isClosed = true
        noSessionTimer?.cancel()
        noSessionTimer = nil
        idleTimer?.cancel()
        idleTimer = nil
        idleNoticeReceivers = [:]
        releaseStartupSlot()
        admission.connectionEnded()
    }

    private func releaseStartupSlot() {
        guard holdsStartupSlot else { return }
        holdsStartupSlot = false
        admission.startupEnded(source: source)
    }
}
