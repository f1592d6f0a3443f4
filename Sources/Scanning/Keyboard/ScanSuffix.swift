import Foundation

/// What a scanner sends after the code.
public enum ScanSuffix: String, Equatable, Hashable, Codable, Sendable {
    case enter, tab, none

    /// The suffix a character is, `.none` for any other character.
    public init(_ character: Character) {
        switch character {
        case "\r", "\n", "\r\n": self = .enter
        case "\t": self = .tab
        default: self = .none
        }
    }

    /// "Enter", "Tab" as the keys are named; "none" as it is.
    public var title: String { self == .none ? "none" : rawValue.capitalized }
}
