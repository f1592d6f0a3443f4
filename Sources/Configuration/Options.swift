import Domain

/// The options of config.toml that are not key bindings, parsed and checked: each field holds
/// its default when the file is absent or its entry is wrong.
public struct ConfigOptions: Equatable, Sendable {
    /// `theme`: "dark", "light", "high-contrast" or "auto" (the default).
    public var theme = Theme.auto
    /// `screen_reader`: the terminal cursor on the focus, an announcement line (default false).
    public var screenReader = false

    public static let defaults = ConfigOptions()
}
