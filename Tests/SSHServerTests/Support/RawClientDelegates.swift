import NIOCore
import NIOSSH

/// The raw test clients' login (RawExecClient, RawSSHConnection): the name, with a password
/// offered once.
final class RawPasswordLogin: NIOSSHClientUserAuthenticationDelegate {
    let login: String
    private var offered = false
    init(login: String) { self.login = login }

    func nextAuthenticationType(
        availableMethods: NIOSSHAvailableUserAuthenticationMethods,
        nextChallengePromise: EventLoopPromise<NIOSSHUserAuthenticationOffer?>
    ) {
        guard !offered, availableMethods.contains(.password) else { return nextChallengePromise.succeed(nil) }
        offered = true
        nextChallengePromise.succeed(.init(username: login, serviceName: "", offer: .password(.init(password: "-"))))
    }
}

/// The raw test clients trust any host key: they talk to a test server on loopback.
final class RawAnyHostKey: NIOSSHClientServerAuthenticationDelegate {
    func validateHostKey(hostKey: NIOSSHPublicKey, validationCompletePromise: EventLoopPromise<Void>) {
        validationCompletePromise.succeed(())
    }
}
