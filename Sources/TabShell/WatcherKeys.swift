import Foundation

/// A watcher's keys (`tabshell watch`): the only keys its screen acts on, and so the only keys
/// its hint line shows, from the first frame. Nothing a watcher presses reaches the
/// presenter, so none of the presenter's keys are shown. Its raw value is the hint line's word.
public enum WatcherKey: String, CaseIterable, Sendable {
    /// Leave the presentation.
    case leave
    /// Show or hide the line that says what watching is.
    case help

    /// The characters that press it.
    public var characters: [Character] {
        switch self {
        case .leave: ["q", "Q"]
        case .help: ["?"]
        }
    }

    /// What the hint line says of it.
    public var hint: String { rawValue }

    /// The watcher's key a character presses, if any.
    public init?(_ character: Character) {
        guard let key = Self.allCases.first(where: { $0.characters.contains(character) }) else { return nil }
        self = key
    }

    /// The hint line's pairs ("q leave  ? help"), in the shape `KeyMap.hints` gives.
    public static var hints: [(keys: String, hint: String)] {
        allCases.map { (String($0.characters[0]), $0.hint) }
    }
}
