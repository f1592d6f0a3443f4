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

    /// What this mode checks of the server's certificate; nil when it uses no TLS at all.
    var certificateCheck: CertificateCheck? {
        switch self {
        case .disable: nil
        case .allow, .prefer, .require: CertificateCheck.none
        case .verifyCA: .chain
        case .verifyFull: .chainAndHostName
        }
    }

    /// How much of the server's certificate is checked.
    enum CertificateCheck: Equatable {
        /// Nothing: the connection is encrypted, the server not authenticated (libpq's way below verify-ca).
        case none
        /// The chain up to a trusted root, whatever host name the certificate names.
        case chain
        /// The chain and the host name.
        case chainAndHostName
    }

    /// The NIOSSL configuration of this mode (nil for `disable`); `roots` is where trusted
    /// certificates come from for the two `verify-` modes.
    func tlsConfiguration(roots: PostgresTrustRoots) -> TLSConfiguration? {
        guard let check = certificateCheck else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch check {
        case .none: configuration.certificateVerification = .none
        case .chain: configuration.certificateVerification = .noHostnameVerification
        case .chainAndHostName: configuration.certificateVerification = .fullVerification
        }
        if check != .none {
            switch roots {
            case .system: configuration.trustRoots = .default
            case let .file(path): configuration.trustRoots = .file(path)
            }
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
