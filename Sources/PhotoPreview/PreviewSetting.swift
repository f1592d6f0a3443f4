/// The user's choice in Settings: let tabshell ask the terminal, always use blocks, or show no
/// photos at all.
public enum PreviewSetting: String, Sendable, Hashable, Codable, CaseIterable {
    case automatic
    case blocks
    case off
}
