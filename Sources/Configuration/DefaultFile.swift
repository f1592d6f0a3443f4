import Domain
import TabShell

/// `tabshell config default`: a complete config.toml, commented, every option and every
/// rebindable action at its default, so that using it as it is changes nothing.
public enum DefaultFile {
    public static var text: String {
        var out = """
            # tabshell's configuration: $XDG_CONFIG_HOME/tabshell/config.toml (else ~/.config/tabshell/config.toml).
            # `tabshell config default` printed this file: every option and every key binding, at its default.
            # `tabshell config check` checks a file. A wrong entry never stops the app: it keeps its default,
            # and the app says what was wrong, with its line, once.

            # The colour theme: "dark", "light", "high-contrast" or "auto" (dark or light after the
            # terminal's background). A theme chosen in Settings wins; NO_COLOR turns colour off.
            theme = "\(ConfigOptions.defaults.theme.rawValue)"

            # For screen readers and braille displays: the cursor on what has focus, the last row
            # announcing each change, words for symbols (as --screen-reader).
            screen_reader = \(ConfigOptions.defaults.screenReader)

            # Keys: each action's list of keys, in place of its defaults (docs/keys.md lists them).
            # Key names as docs/keys.md writes them: a letter or symbol ("c", "D", "?"), "Space", "Enter",
            # "Esc", "Tab", "S-Tab", "Bksp", "Del", "Ins", "Up", "Down", "Left", "Right" (or the arrows),
            # "Home", "End", "PgUp", "PgDn", "F1" to "F24", "Ctrl-D", "Alt-x", "Ctrl-Up", "Shift-F5".
            # An empty list, [], unbinds an action; not quit, interrupt or a key that closes a screen.
            # Two actions that act on the same screen cannot share a key, and a screen with a text
            # field types printable keys, so its actions need keys like Ctrl-… or F….
            [keys]

            """
        var listed = Set<String>()
        for context in KeyContext.allCases {
            let bindings = KeyMap.defaultBindings(for: context).filter { $0.isRebindable && listed.insert($0.name).inserted }
            guard !bindings.isEmpty else { continue }
            out += "\n# \(context.title)\n"
            for binding in bindings {
                let keys = binding.keys.map { "\"\(KeyName.name(of: $0).tomlEscaped)\"" }.joined(separator: ", ")
                out += "\(binding.name) = [\(keys)]  # \(binding.help)\n"
            }
        }
        return out
    }
}

extension String {
    /// Inside a TOML basic string.
    var tomlEscaped: String {
        replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
