/// Who may log in.
public enum SSHAuthorization: Sendable {
    /// Team mode: public keys listed in an OpenSSH authorized_keys file; a key's comment is the
    /// person's name. The file is re-read when it changes.
    case authorizedKeysFile(String)
    /// Demo mode: anyone is let in without a key (SSH "none" authentication; any key or
    /// password is accepted too). The person's name is the login name they gave.
    case open
    /// Any other rule: given an offered key (its signature already verified), the person's
    /// name, or nil to refuse it.
    case custom(@Sendable (SSHOfferedKey) -> String?)
}
