import Logging
import NIOCore
import NIOSSH

/// Answers a connection's authentication requests from the server's policy, and records who
/// the client turned out to be.
final class AuthenticationDelegate: NIOSSHServerUserAuthenticationDelegate {
    private let context: ServerContext
    private let connection: ConnectionState

    init(context: ServerContext, connection: ConnectionState) {
        self.context = context
        self.connection = connection
    }

    var supportedAuthenticationMethods: NIOSSHAvailableUserAuthenticationMethods {
        if case .open = context.configuration.authorization { return [.publicKey, .password] }
        return .publicKey
    }

    func requestReceived(
        request: NIOSSHUserAuthenticationRequest, responsePromise: EventLoopPromise<NIOSSHUserAuthenticationOutcome>
    ) {
        let loginName = ClientText.printable(request.username, limit: 64)
        switch (context.configuration.authorization, request.request) {
        case (.open, .publicKey(let offer)):
            accept(name: loginName, key: offer.publicKey, loginName: loginName, responsePromise)
        case (.open, _):
            accept(name: loginName, key: nil, loginName: loginName, responsePromise)
        case (.authorizedKeysFile, .publicKey(let offer)):
            if let person = context.authorizedKeys?.person(for: offer.publicKey) {
                accept(name: person.name, key: offer.publicKey, loginName: loginName, revocable: true, responsePromise)
            } else {
                refuse(key: offer.publicKey, loginName: loginName, responsePromise)
            }
        case (.custom(let decide), .publicKey(let offer)):
            let offered = SSHOfferedKey(
                fingerprint: SSHKeyFingerprint(offer.publicKey),
                openSSHPublicKey: String(openSSHPublicKey: offer.publicKey), loginName: loginName)
            if let name = decide(offered) {
                accept(name: name, key: offer.publicKey, loginName: loginName, responsePromise)
            } else {
                refuse(key: offer.publicKey, loginName: loginName, responsePromise)
            }
        case (_, .none):
            // Every OpenSSH client asks "none" first; not worth an info line.
            connection.askedToLogIn(as: loginName)
            responsePromise.succeed(.failure)
        case (_, .password), (_, .hostBased):
            connection.authenticationRefused(loginName: loginName)
            connection.logger.info("authentication refused: only public keys are accepted", metadata: ["login": "\(loginName)"])
            SSHServerMetrics.authenticated(.refused)
            responsePromise.succeed(.failure)
        }
    }

    /// `revocable`: the key comes from the authorized keys file, and is checked again at every
    /// session and reload.
    private func accept(
        name: String, key: NIOSSHPublicKey?, loginName: String, revocable: Bool = false,
        _ promise: EventLoopPromise<NIOSSHUserAuthenticationOutcome>
    ) {
        let fingerprint = key.map { SSHKeyFingerprint($0).sha256 }
        connection.authenticated(
            as: SSHPeer(
                name: name, keyFingerprint: fingerprint, loginName: loginName,
                remoteAddress: connection.remoteAddress, connectionID: connection.id, source: connection.source),
            key: revocable ? key : nil)
        connection.logger.info(
            "authenticated",
            metadata: [
                "fingerprint": "\(fingerprint ?? "none")", "login": "\(loginName)",
            ])
        SSHServerMetrics.authenticated(.accepted)
        promise.succeed(.success)
    }

    private func refuse(key: NIOSSHPublicKey, loginName: String, _ promise: EventLoopPromise<NIOSSHUserAuthenticationOutcome>) {
        connection.authenticationRefused(loginName: loginName)
        connection.logger.info(
            "key refused: not authorized",
            metadata: [
                "fingerprint": "\(SSHKeyFingerprint(key).sha256)", "login": "\(loginName)",
            ])
        SSHServerMetrics.authenticated(.refused)
        promise.succeed(.failure)
    }
}
