import Domain
import TabShell

/// Key names as docs/keys.md writes them (`Ctrl-D`, `F1`, `S-Tab`, `PgDn`, `Enter`, `Esc`,
/// `Space`, `↑` or `Up`, a letter, `?`), read from config.toml and written into the default
/// file. `name(of:)` and `key(named:)` round-trip for every key a binding can answer to.
public enum KeyName {
    /// What a name is not: a sentence for the problem line.
    public enum Refusal: Error, Equatable, Sendable {
        case unknown
        /// A key a terminal sends as another one (Ctrl-I is Tab).
        case sameAs(String)
    }

    static let named: [(names: [String], key: Key)] = [
        (["Enter", "Return"], .enter), (["Esc", "Escape"], .escape), (["Tab"], .tab),
        (["S-Tab", "Shift-Tab", "BackTab"], .backTab), (["Bksp", "Backspace"], .backspace),
        (["Del", "Delete"], .delete), (["Ins", "Insert"], .insert), (["Up", "↑"], .up), (["Down", "↓"], .down),
        (["Left", "←"], .left), (["Right", "→"], .right), (["Home"], .home), (["End"], .end),
        (["PgUp", "PageUp"], .pageUp), (["PgDn", "PageDown"], .pageDown), (["Space"], .character(" ")),
    ]

    /// The most function keys a terminal reports.
    static let functionKeys = 1...24

    /// How config.toml writes `key`: docs/keys.md's label in ASCII (`Up`, not `↑`).
    public static func name(of key: Key) -> String { key.label(unicode: false) }

    /// The key `name` stands for; names of named keys are read in any case (`pgdn`), a letter
    /// as written (`d` and `D` differ).
    public static func key(named name: String) -> Result<Key, Refusal> {
        if let key = namedKey(name) { return .success(key) }
        if name.count == 1, let character = name.first {
            return isPrintable(character) ? .success(.character(character)) : .failure(.unknown)
        }
        let lower = name.lowercased()
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), functionKeys.contains(number), String(number) == lower.dropFirst() {
            return .success(.function(number))
        }
        for (prefix, modifier) in [("ctrl-", KeyModifiers.control), ("alt-", .alt), ("shift-", .shift), ("meta-", .meta)]
        where lower.hasPrefix(prefix) && name.count > prefix.count {
            let rest = String(name.dropFirst(prefix.count))
            return modified(rest, by: modifier)
        }
        return .failure(.unknown)
    }

    private static func namedKey(_ name: String) -> Key? {
        let lower = name.lowercased()
        return named.first { $0.names.contains { $0.lowercased() == lower } }?.key
    }

    /// `Ctrl-d`, `Alt-x`, `Ctrl-Up`, `Ctrl-Shift-F5`…
    private static func modified(_ rest: String, by modifier: KeyModifiers) -> Result<Key, Refusal> {
        if rest.count == 1, let character = rest.first, namedKey(rest) == nil {
            switch modifier {
            case .control: return control(character)
            case .alt: return isPrintable(character) ? .success(.alt(character)) : .failure(.unknown)
            default: return .failure(.unknown)
            }
        }
        if rest.lowercased() == "space", modifier == .alt { return .success(.alt(" ")) }
        switch key(named: rest) {
        case let .success(.modified(key, modifiers)): return .success(.modified(key, modifiers.union(modifier)))
        case let .success(key) where isModifiable(key): return .success(.modified(key, modifier))
        case .success: return .failure(.unknown)
        case let .failure(refusal): return .failure(refusal)
        }
    }

    /// Ctrl plus a letter or one of `\ ] ^ _`, as the input decoder reports them.
    private static func control(_ character: Character) -> Result<Key, Refusal> {
        let lower = Character(character.lowercased())
        switch lower {
        case "h": return .failure(.sameAs("Bksp"))
        case "i": return .failure(.sameAs("Tab"))
        case "j", "m": return .failure(.sameAs("Enter"))
        case "[": return .failure(.sameAs("Esc"))
        case "a"..."z", "\\", "]", "^", "_": return .success(.control(lower))
        default: return .failure(.unknown)
        }
    }

    /// Keys a terminal reports with modifiers (xterm's `ESC [ 1 ; m A`, `ESC [ n ; m ~`).
    private static func isModifiable(_ key: Key) -> Bool {
        switch key {
        case .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .insert, .delete, .function: true
        default: false
        }
    }

    private static func isPrintable(_ character: Character) -> Bool {
        character != " " && !character.unicodeScalars.contains { Sanitizer.isUnsafe($0) || $0.properties.isWhitespace }
    }
}
