/// Who typed an entry: a scanner (keys within a few milliseconds) or a person.
public enum InputSource: String, Equatable, Hashable, Codable, Sendable {
    case scanner, person
}
