import Domain
import TOMLKit
import TabShell

/// Reads a parsed TOML table into a `Configuration`, keeping every wrong entry's default and
/// saying what was wrong with it, by line.
struct ConfigReader {
    let lines: SourceLines
    private(set) var problems: [ConfigProblem] = []

    init(lines: SourceLines) { self.lines = lines }

    mutating func read(_ table: TOMLTable) -> Configuration {
        var options = ConfigOptions()
        for name in lines.ordered(table.keys, under: []) {
            guard let value = table[name] else { continue }
            let line = lines.line(of: [name])
            switch name {
            case "theme":
                guard let text = value.string else {
                    problem(line, "`theme` takes a string: one of \(Self.themeList).")
                    continue
                }
                guard let theme = Theme(rawValue: text) else {
                    problem(line, "unknown theme \"\(Printable.text(text))\": use one of \(Self.themeList).")
                    continue
                }
                options.theme = theme
            case "screen_reader":
                guard let flag = value.bool, value.type == .bool else {
                    problem(line, "`screen_reader` takes true or false.")
                    continue
                }
                options.screenReader = flag
            case "keys":
                guard value.type == .table, let keys = value.table else {
                    problem(line, "`keys` must be a table: [keys] and lines like create = [\"c\"].")
                    continue
                }
                readKeys(keys)
            default:
                problem(line, "unknown setting `\(Printable.text(name))`: the settings are theme, screen_reader and [keys].")
            }
        }
        return Configuration(options: options, keyOverrides: KeyOverrides(rebound.mapValues(\.keys)), problems: sortedProblems)
    }

    /// The themes `theme` takes (Domain's ``Theme``), in the order docs/configuration.md lists them.
    static var themeList: String { [Theme.dark, .light, .highContrast, .auto].map { "\"\($0.rawValue)\"" }.joined(separator: ", ") }

    /// The most keys one action may have.
    static let maximumKeysPerAction = 16

    /// `[keys]`'s entries that passed, by action name: their keys and line.
    private(set) var rebound: [String: (keys: [Key], line: Int)] = [:]

    /// `[keys]`: each action's list of keys, checked one by one, then against each other.
    mutating func readKeys(_ table: TOMLTable) {
        let known = KeyMap.actionNames
        let names = Set(known)
        for name in lines.ordered(table.keys, under: ["keys"]) {
            guard let value = table[name] else { continue }
            let path = ["keys", name]
            let line = lines.line(of: path)
            let shown = Printable.text(name)
            guard names.contains(name) else {
                problem(line, "unknown action `\(shown)` in [keys]\(Self.suggestion(for: name, among: known)); docs/keys.md and `tabshell config default` list them.")
                continue
            }
            guard KeyMap.isRebindable(name) else {
                problem(line, "`\(name)` cannot be rebound: its keys are what it does (typing, pasting, editing, a question's letters).")
                continue
            }
            guard value.type == .array, let array = value.array else {
                problem(line, "`\(name)` takes a list of keys, like \(name) = [\"\(KeyName.name(of: KeyMap.defaultKeys(of: name)?.first ?? .enter))\"].")
                continue
            }
            guard array.count <= Self.maximumKeysPerAction else {
                problem(line, "`\(name)` lists \(array.count) keys; at most \(Self.maximumKeysPerAction). It keeps its default.")
                continue
            }
            var keys: [Key] = []
            var isValid = true
            for (index, element) in array.enumerated() {
                let elementLine = lines.line(ofElement: index, in: path)
                guard element.type == .string, let text = element.string else {
                    problem(elementLine, "`\(name)`'s keys are strings, like \"c\" or \"Ctrl-D\"; it keeps its default.")
                    isValid = false
                    continue
                }
                switch KeyName.key(named: text) {
                case let .success(key):
                    if !keys.contains(key) { keys.append(key) }
                case .failure(.unknown):
                    problem(
                        elementLine,
                        "unknown key \"\(Printable.text(text))\" for `\(name)`: write keys as docs/keys.md does (c, ?, Space, Enter, Esc, Tab, S-Tab, Up, PgDn, F1, Ctrl-D, Alt-x); it keeps its default."
                    )
                    isValid = false
                case let .failure(.sameAs(other)):
                    problem(elementLine, "\(Printable.text(text)) reaches tabshell as \(other) (terminals send the same byte): write \"\(other)\"; `\(name)` keeps its default.")
                    isValid = false
                }
            }
            guard isValid else { continue }
            if keys.isEmpty, KeyMap.essentialActions.contains(name) {
                problem(line, "`\(name)` must keep a key (without it a screen could not be left); it keeps its default.")
                continue
            }
            rebound[name] = (keys, line)
        }
        checkConflicts()
    }

    /// Two actions that act together (one screen's contexts, `KeyMap.contextGroups`) must not
    /// share a key, and a printable key cannot be bound where it is typed into a field. Each
    /// entry at fault keeps its default; that can bring out another clash, so this runs again
    /// until none is left (the defaults have none).
    private mutating func checkConflicts() {
        var reported = Set<[String]>()
        while true {
            let overrides = KeyOverrides(rebound.mapValues(\.keys))
            var rejected = Set<String>()
            var clashes: [Clash] = []
            for group in KeyMap.contextGroups {
                let bindings = group.flatMap { KeyMap.bindings(for: $0, in: nil, overrides: overrides) }
                let typingContext = group.first(where: KeyMap.typesText)
                var owners: [Key: String] = [:]
                for binding in bindings {
                    for key in binding.keys {
                        if let typingContext, case .character = key, let entry = rebound[binding.name], !rejected.contains(binding.name) {
                            if reported.insert([binding.name, "typing", typingContext.rawValue]).inserted {
                                problem(
                                    entry.line,
                                    "\"\(KeyName.name(of: key))\" is typed as text in \(typingContext.title), where `\(binding.name)` acts too: bind it to a key that types nothing there (Ctrl-…, F…); it keeps its default."
                                )
                            }
                            rejected.insert(binding.name)
                        }
                        guard let other = owners[key] else {
                            owners[key] = binding.name
                            continue
                        }
                        guard other != binding.name, !KeyMap.mayShareKeys(other, binding.name) else { continue }
                        conflict(key, other, binding.name, in: group[0], reported: &reported, rejected: &rejected, clashes: &clashes)
                    }
                }
            }
            report(clashes, reported: &reported)
            guard !rejected.isEmpty else { return }
            for name in rejected { rebound[name] = nil }
        }
    }

    /// A key config.toml gave an action that another has by default.
    private struct Clash {
        let name: String
        let key: String
        let line: Int
        let other: String
        let context: KeyContext
    }

    private mutating func conflict(
        _ key: Key, _ first: String, _ second: String, in context: KeyContext, reported: inout Set<[String]>, rejected: inout Set<String>,
        clashes: inout [Clash]
    ) {
        let pair = [first, second].sorted()
        let keyName = KeyName.name(of: key)
        switch (rebound[first], rebound[second]) {
        case let (one?, two?):
            let (early, late) = one.line <= two.line ? ((first, one.line), (second, two.line)) : ((second, two.line), (first, one.line))
            if reported.insert(pair).inserted {
                problem(
                    late.1,
                    "\"\(keyName)\" is bound to both `\(early.0)` (config.toml:\(early.1)) and `\(late.0)` (config.toml:\(late.1)) in \(context.title); both keep their defaults."
                )
            }
            rejected.formUnion([first, second])
        case let (one?, nil):
            clashes.append(Clash(name: first, key: keyName, line: one.line, other: second, context: context))
            rejected.insert(first)
        case let (nil, two?):
            clashes.append(Clash(name: second, key: keyName, line: two.line, other: first, context: context))
            rejected.insert(second)
        case (nil, nil):
            // Defaults never clash (KeyMapTests); nothing the file can be blamed for.
            break
        }
    }

    /// One problem for each action and key, naming every action that has the key by default.
    private mutating func report(_ clashes: [Clash], reported: inout Set<[String]>) {
        var order: [[String]] = []
        var others: [[String]: [Clash]] = [:]
        for clash in clashes where reported.insert([clash.name, clash.other].sorted()).inserted {
            let id = [clash.name, clash.key]
            if others[id] == nil { order.append(id) }
            others[id, default: []].append(clash)
        }
        for id in order {
            let order = KeyContext.allCases
            guard let all = others[id]?.sorted(by: { (order.firstIndex(of: $0.context) ?? 0) < (order.firstIndex(of: $1.context) ?? 0) }),
                let first = all.first
            else { continue }
            let names = all.map { "`\($0.other)` in \($0.context.title)" }
            let listed = names.listed()
            let rebind = all.count == 1 ? "`\(first.other)`" : "those"
            problem(
                first.line,
                "\"\(first.key)\" is bound to `\(first.name)` here and, by default, to \(listed): rebind \(rebind) too or choose another key; `\(first.name)` keeps its default."
            )
        }
    }

    /// " (did you mean `create`?)" for a near name, else nothing.
    static func suggestion(for name: String, among known: [String]) -> String {
        let lower = name.lowercased().replacingOccurrences(of: "-", with: "_")
        if let same = known.first(where: { $0 == lower }) { return " (did you mean `\(same)`?)" }
        let near = known.filter { $0.hasPrefix(lower) || (lower.count >= 4 && $0.contains(lower)) }
        return near.count == 1 ? " (did you mean `\(near[0])`?)" : ""
    }

    mutating func problem(_ line: Int, _ message: String) {
        problems.append(ConfigProblem(line: line, message))
    }

    /// By line; past `ConfigFile.maximumProblems`, one last line counts the rest.
    var sortedProblems: [ConfigProblem] {
        let sorted = problems.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
        guard sorted.count > ConfigFile.maximumProblems else { return sorted }
        let kept = Array(sorted.prefix(ConfigFile.maximumProblems))
        return kept + [ConfigProblem(line: 0, "\(sorted.count - kept.count) more problems not shown.")]
    }
}
