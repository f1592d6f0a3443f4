import Foundation

/// The Settings choice for photo previews: let tabshell decide from the terminal, always use
/// Unicode blocks, or show no photos at all.
public enum PhotoPreviewSetting: String, CaseIterable, Codable, Sendable {
    case automatic, blocks, off

    public var title: String {
        switch self {
        case .automatic: "Automatic"
        case .blocks: "Blocks"
        case .off: "Off"
        }
    }
}
