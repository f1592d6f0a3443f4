/// Text that came from a client (login names, commands, subsystem and forwarding names, the
/// launcher's sentences that quote them): what of it may be logged, said back, or kept as a name.
///
/// Nothing a terminal or a log reader would act on survives: C0 controls (NUL, ESC, BEL, line
/// breaks), DEL, C1 controls (U+0080–U+009F, CSI among them), bidi overrides, embeddings,
/// isolates and marks, and the Unicode line and paragraph separators each become `?`, so a log
/// line stays one line and reads in its own order, and a reader still sees that something was
/// there. The app's own `Sanitizer` (TabShell) keeps the same set; this module cannot import it.
public enum ClientText {
    /// `text` made printable, cut to `limit` characters with `…`.
    public static func printable(_ text: String, limit: Int = 200) -> String {
        // Replaced first, then cut: a replaced CR LF (one character) is two, and the limit holds.
        var safe = text
        if text.unicodeScalars.contains(where: isUnsafe) {
            safe = String(String.UnicodeScalarView(text.unicodeScalars.map { isUnsafe($0) ? "?" : $0 }))
        }
        return safe.count > limit ? String(safe.prefix(limit)) + "…" : safe
    }

    /// True for a scalar that must never reach a terminal or a log as is.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20..<0x7F: false
        case 0..<0x20, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    /// True when `text` holds a NUL, which no program can be handed in an argument or the
    /// environment: C strings end there, so the program would see a shorter word than the one
    /// checked.
    public static func holdsNUL(_ text: String) -> Bool {
        text.utf8.contains(0)
    }
}
