import Foundation

/// The Settings choice for photo previews: let tabshell decide from the terminal, always use
/// Unicode blocks, or show no photos at all.
public enum PhotoPreviewSetting: String, CaseIterable, Codable, Sendable {
    case automatic, blocks, off

    /// "Automatic", "Blocks", "Off": the raw value with a capital.
    public var title: String { rawValue.capitalized }
}
