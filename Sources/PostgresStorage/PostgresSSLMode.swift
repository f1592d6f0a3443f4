import PostgresNIO

/// libpq's `sslmode`: whether and how a connection uses TLS.
///
/// postgres-nio has three TLS settings (disable, prefer, require) and NIOSSL's certificate
/// checks; each mode maps onto them as libpq describes it:
///
/// | mode | TLS | certificate checked |
/// | --- | --- | --- |
/// | `disable` | never | — |
/// | `allow` | only if the server refuses a plain connection (tried first, then TLS) | no |
/// | `prefer` (the default) | if the server offers it | no |
/// | `require` | always | no |
/// | `verify-ca` | always | chain to a trusted root, any host name |
/// | `verify-full` | always | chain to a trusted root and the host name |
///
/// The trusted roots for the two `verify-` modes are the `sslrootcert` parameter's file (PEM),
/// or the system's store for `sslrootcert=system`; without the parameter, libpq's default file
/// `~/.postgresql/root.crt` when it exists, else the system's store.
public enum PostgresSSLMode: String, CaseIterable, Sendable {
    case disable
    case allow
    case prefer
    case require
    case verifyCA = "verify-ca"
    case verifyFull = "verify-full"

    /// Whether the server's certificate is checked against trusted roots.
    public var verifiesCertificate: Bool { self == .verifyCA || self == .verifyFull }

    /// The NIOSSL configuration of this mode (nil for `disable`): below `verify-ca` the
    /// connection is encrypted and the server not authenticated (libpq's way); `verify-ca` checks
    /// the chain up to a trusted root, whatever host name the certificate names; `verify-full` the
    /// chain and the host name. `roots` is where trusted certificates come from for those two.
    func tlsConfiguration(roots: PostgresTrustRoots) -> TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch self {
        case .disable: return nil
        case .allow, .prefer, .require:
            configuration.certificateVerification = .none
            return configuration
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        switch roots {
        case .system: configuration.trustRoots = .default
        case let .file(path): configuration.trustRoots = .file(path)
        }
        return configuration
    }
}

/// Where the certificates a `verify-` mode trusts come from.
public enum PostgresTrustRoots: Equatable, Sendable {
    /// The system's trust store.
    case system
    /// A file of PEM certificates.
    case file(String)
}
