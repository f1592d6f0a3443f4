import NIOCore
import NIOSSH

/// The raw test clients' login (RawExecClient, RawSSHConnection): the name, with a password
/// offered once.
final class RawPasswordLogin: NIOSSHClientUserAuthenticationDelegate {
    let login: String
    /// How long the client thinks before it offers its password: a slow login.
    let delay: TimeAmount
    private var offered = false
    init(login: String, delay: TimeAmount = .zero) {
        self.login = login
        self.delay = delay
    }

    func nextAuthenticationType(
        availableMethods: NIOSSHAvailableUserAuthenticationMethods,
        nextChallengePromise: EventLoopPromise<NIOSSHUserAuthenticationOffer?>
    ) {
        guard !offered, availableMethods.contains(.password) else { return nextChallengePromise.succeed(nil) }
        offered = true
        let offer = NIOSSHUserAuthenticationOffer(username: login, serviceName: "", offer: .password(.init(password: "-")))
        guard delay > .zero else { return nextChallengePromise.succeed(offer) }
        nextChallengePromise.futureResult.eventLoop.scheduleTask(in: delay) { nextChallengePromise.succeed(offer) }
    }
}

/// The raw test clients trust any host key: they talk to a test server on loopback.
final class RawAnyHostKey: NIOSSHClientServerAuthenticationDelegate {
    func validateHostKey(hostKey: NIOSSHPublicKey, validationCompletePromise: EventLoopPromise<Void>) {
        validationCompletePromise.succeed(())
    }
}
