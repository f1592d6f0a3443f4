/// Where a code came from, kept on the record.
public enum CodeSource: String, Codable, Equatable, Hashable, Sendable {
    /// Keystrokes a few milliseconds apart, ending in Enter: a keyboard-wedge scanner.
    case scanner
    /// Typed by a person.
    case person
    /// A bracketed paste.
    case paste
    /// Read from a photo.
    case photo
}
