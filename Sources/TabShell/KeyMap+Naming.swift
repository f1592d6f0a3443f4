import Foundation

/// Texts that name a key ("press 2 or + to capture", "1-4: tabs", "Esc closes") take it from
/// here: the keys that act now, with config.toml's `[keys]` in force and every key a more
/// specific binding takes out, so a text never names a key that does something else or nothing.
extension KeyMap {
    /// The keys that send `action` in `state`, in table order: each bound to it and not taken
    /// by a binding tried before it (`action(for:in:)` answers `action` for every one).
    public static func keys(sending action: AppAction, in state: AppState) -> [Key] {
        keys(sending: action, in: InForce(state))
    }

    static func keys(sending action: AppAction, in inForce: InForce) -> [Key] {
        var seen = Set<Key>()
        return inForce.table.flatMap { _, bindings in bindings.filter { $0.action == action }.flatMap(\.keys) }
            .filter { seen.insert($0).inserted && inForce.action(for: $0) == action }
    }

    /// The first key that sends `action` in `state`, in words ("Enter", "Up"), for a sentence;
    /// nil when none does.
    public static func keyName(sending action: AppAction, in state: AppState) -> String? {
        keys(sending: action, in: state).first?.label(unicode: false)
    }

    /// "2 or +": the keys that send `action` in `state`, for a sentence; nil when none does.
    public static func keyPhrase(sending action: AppAction, in state: AppState, unicode: Bool) -> String? {
        let labels = keys(sending: action, in: state).map { $0.label(unicode: unicode) }
        return labels.isEmpty ? nil : labels.listed(or: true)
    }

    /// The keys that choose each tab in `state`, one per tab, in tab-bar order: "1-4" while they
    /// are the digits in a row, else each tab's first key ("1/c/3/4"); nil when no tab key acts.
    public static func tabKeysLabel(in state: AppState, unicode: Bool) -> String? {
        let inForce = InForce(state)
        let firsts = Tab.allCases.compactMap { keys(sending: .tabChosen($0), in: inForce).first }
        guard let first = firsts.first, let last = firsts.last else { return nil }
        let digits = firsts.compactMap { key -> Int? in
            if case let .character(c) = key { return c.wholeNumberValue } else { return nil }
        }
        if firsts.count == Tab.allCases.count, firsts.count > 2, digits.count == firsts.count,
            zip(digits, digits.dropFirst()).allSatisfy({ $1 == $0 + 1 })
        {
            return "\(first.label(unicode: unicode))-\(last.label(unicode: unicode))"
        }
        return firsts.map { $0.label(unicode: unicode) }.joined(separator: "/")
    }
}
