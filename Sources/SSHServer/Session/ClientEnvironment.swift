/// Which of the client's environment variables reach the child: LANG and LC_* only, with
/// sane values, and TABSHELL_SCREEN_READER (`ssh -o SetEnv=TABSHELL_SCREEN_READER=1`, the
/// app's screen-reader mode). Everything else (PATH, LD_PRELOAD, …) is dropped, as sshd's
/// AcceptEnv would.
enum ClientEnvironment {
    static let maximumVariables = 16
    static let maximumValueLength = 256
    /// Turns the app's screen-reader mode on for the session (docs/accessibility.md).
    static let screenReader = "TABSHELL_SCREEN_READER"

    static func accepts(name: String, value: String) -> Bool {
        if name == screenReader { return value.count <= 8 && value.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."z").contains($0) } }
        guard name == "LANG" || (name.hasPrefix("LC_") && name.count > 3) else { return false }
        guard name.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || $0 == "_" }) else { return false }
        guard value.utf8.count <= maximumValueLength else { return false }
        // Locale names are ASCII: no NUL (the child would see a shorter value), no control.
        return value.unicodeScalars.allSatisfy { (0x20..<0x7F).contains($0.value) }
    }

    /// TERM goes into the child's environment: keep it to a terminal name.
    static func sanitizedTerm(_ term: String) -> String {
        let allowed = term.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "._+-".unicodeScalars.contains($0)
        }
        return allowed && !term.isEmpty && term.count <= 64 ? term : "dumb"
    }
}
