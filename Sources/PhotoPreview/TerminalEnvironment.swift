/// What the caller knows about the terminal besides its answers: read from the process
/// environment and the locale by the front end, never inside this module.
public struct TerminalEnvironment: Hashable, Sendable {
    /// The locale's codeset is UTF-8 (`nl_langinfo(CODESET)`).
    public var isUTF8: Bool
    /// `TMUX` (or `STY`, GNU screen) is set: a multiplexer sits between us and the terminal and
    /// drops graphics unless passthrough is configured.
    public var insideMultiplexer: Bool
    /// `NO_COLOR` is set and not empty.
    public var noColor: Bool

    public init(isUTF8: Bool, insideMultiplexer: Bool, noColor: Bool) {
        self.isUTF8 = isUTF8
        self.insideMultiplexer = insideMultiplexer
        self.noColor = noColor
    }
}
