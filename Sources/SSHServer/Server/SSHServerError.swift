/// What can stop the server from starting, each with a sentence for the person running it.
public enum SSHServerError: Error, Equatable, Sendable, CustomStringConvertible {
    case hostKeyUnreadable(path: String, reason: String)
    case hostKeyInvalid(path: String, reason: String)
    case hostKeyExposed(path: String, mode: String)
    case hostKeyNotWritten(path: String, reason: String)
    case authorizedKeysUnreadable(path: String, reason: String)
    case cannotListen(address: String, reason: String)
    case alreadyStarted

    public var description: String {
        switch self {
        case .hostKeyUnreadable(let path, let reason):
            "The host key \(path) could not be read: \(reason)."
        case .hostKeyInvalid(let path, let reason):
            "The host key \(path) is not an unencrypted OpenSSH Ed25519 private key: \(reason)."
        case .hostKeyExposed(let path, let mode):
            "The host key \(path) can be read by others (mode \(mode)); run `chmod 600 \(path)` and start again."
        case .hostKeyNotWritten(let path, let reason):
            "A new host key could not be written to \(path): \(reason)."
        case .authorizedKeysUnreadable(let path, let reason):
            "The authorized keys file \(path) could not be read: \(reason)."
        case .cannotListen(let address, let reason):
            "Cannot listen on \(address): \(reason)."
        case .alreadyStarted:
            "The server is already running."
        }
    }
}
