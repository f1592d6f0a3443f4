import Logging
import NIOCore

/// One TCP connection's state, confined to its event loop: who it is once authenticated, and
/// whether it still holds a start-up slot.
final class ConnectionState {
    let id: Int
    let remoteAddress: String
    /// The client's IP address, what the per-source limits count.
    let source: String
    private(set) var peer: SSHPeer?
    private(set) var logger: Logger
    private var holdsStartupSlot = true
    private var graceTimer: Scheduled<Void>?
    private let admission: ConnectionAdmission

    init(id: Int, remoteAddress: String, source: String, logger: Logger, admission: ConnectionAdmission) {
        self.id = id
        self.remoteAddress = remoteAddress
        self.source = source
        self.admission = admission
        var logger = logger
        logger[metadataKey: "connection"] = "\(id)"
        logger[metadataKey: "address"] = "\(remoteAddress)"
        self.logger = logger
    }

    func authenticated(as peer: SSHPeer) {
        self.peer = peer
        logger[metadataKey: "person"] = "\(peer.name)"
    }

    func armGraceTimer(_ timer: Scheduled<Void>) {
        graceTimer = timer
    }

    /// The client asked for its first session: it is no longer starting up.
    func sessionRequested() {
        graceTimer?.cancel()
        graceTimer = nil
        releaseStartupSlot()
    }

    var isStartingUp: Bool { holdsStartupSlot }

    func closed() {
        graceTimer?.cancel()
        graceTimer = nil
        releaseStartupSlot()
    }

    private func releaseStartupSlot() {
        guard holdsStartupSlot else { return }
        holdsStartupSlot = false
        admission.startupEnded(source: source)
    }
}
