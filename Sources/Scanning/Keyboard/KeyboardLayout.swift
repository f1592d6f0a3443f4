/// Keyboard layouts a USB scanner (a keyboard to the computer) and the computer may disagree on.
///
/// A scanner sends key positions, not characters. Set to US and plugged into a computer using
/// AZERTY, it presses the key where US has `1`, and the computer types `&`. These tables say what
/// each layout types on each US key position, unshifted and shifted.
public enum KeyboardLayout: String, CaseIterable, Codable, Equatable, Hashable, Sendable {
    case us, azerty, qwertz, uk

    /// For sentences: `AZERTY (French)`.
    public var title: String {
        switch self {
        case .us: "US"
        case .azerty: "AZERTY (French)"
        case .qwertz: "QWERTZ (German)"
        case .uk: "UK"
        }
    }

    /// For a setting's value: `AZERTY`.
    public var shortName: String { rawValue.uppercased() }

    /// What this layout types on the key where US types `usCharacter`; `nil` when the same.
    func character(atUSKey usCharacter: Character) -> Character? {
        keyMap.forward[usCharacter]
    }

    /// The US character of the key on which this layout types `character`; `nil` when the same.
    func usKey(typing character: Character) -> Character? {
        keyMap.inverse[character]
    }

    private var keyMap: KeyMap {
        switch self {
        case .us: KeyMap.identity
        case .azerty: KeyMap.azerty
        case .qwertz: KeyMap.qwertz
        case .uk: KeyMap.uk
        }
    }
}
