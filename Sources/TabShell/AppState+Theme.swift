import Domain

extension AppState {
    /// The theme in force: the one chosen in Settings, else config.toml's (which defaults to auto).
    public var theme: Theme { settings.theme ?? environment.theme }
}
