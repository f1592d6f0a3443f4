import Configuration
import Domain
import Foundation
import TabShell
import TestSupport
import Testing

/// config.toml read into a `Configuration`: options, every kind of problem with its
/// line, the bounds, and the file `tabshell config default` prints.
@Suite struct ConfigurationTests {
    func problems(_ text: String) -> [String] { ConfigFile.parse(text).problems.map(\.description) }

    @Test func anEmptyFileIsEveryDefault() {
        let configuration = ConfigFile.parse("")
        #expect(configuration.problems.isEmpty)
        #expect(configuration.theme == .auto)
        #expect(configuration.screenReader == false)
        #expect(configuration.keyOverrides == .none)
    }

    @Test func readsTheOptions() {
        let configuration = ConfigFile.parse("theme = \"high-contrast\"\nscreen_reader = true\n")
        #expect(configuration.problems.isEmpty)
        #expect(configuration.theme == .highContrast)
        #expect(configuration.screenReader)
        for theme in Theme.allCases {
            #expect(ConfigFile.parse("theme = \"\(theme.rawValue)\"").theme == theme)
        }
    }

    @Test func wrongOptionsKeepTheirDefaultsAndSayTheirLine() {
        let configuration = ConfigFile.parse("# a comment\n\ntheme = \"blue\"\nscreen_reader = \"yes\"\nbogus = 1\n")
        #expect(configuration.theme == .auto)
        #expect(configuration.screenReader == false)
        #expect(
            configuration.problems.map(\.description) == [
                "config.toml:3: unknown theme \"blue\": use one of \"dark\", \"light\", \"high-contrast\", \"auto\".",
                "config.toml:4: `screen_reader` takes true or false.",
                "config.toml:5: unknown setting `bogus`: the settings are theme, screen_reader and [keys].",
            ])
        #expect(problems("theme = 3") == ["config.toml:1: `theme` takes a string: one of \"dark\", \"light\", \"high-contrast\", \"auto\"."])
        #expect(problems("screen_reader = 1") == ["config.toml:1: `screen_reader` takes true or false."])
        #expect(problems("keys = 1").first?.hasPrefix("config.toml:1: `keys` must be a table") == true)
    }

    @Test func aSyntaxErrorSaysItsLineAndKeepsEveryDefault() {
        let configuration = ConfigFile.parse("theme = \"dark\"\n[keys]\ncreate = [\"c\"\n\nquit = = 2\n")
        #expect(configuration.theme == .auto)
        #expect(configuration.keyOverrides == .none)
        #expect(configuration.problems.count == 1)
        let problem = configuration.problems[0]
        #expect(problem.line >= 3 && problem.line <= 5, "\(problem.description)")
        #expect(problem.description.hasPrefix("config.toml:\(problem.line): not valid TOML: "))
        #expect(problems("a = 1\nb = \n")[0].hasPrefix("config.toml:2: not valid TOML"))
        #expect(problems("a = 1\na = 2\n")[0].hasPrefix("config.toml:2: not valid TOML"))
    }

    // MARK: - [keys]

    @Test func aRebindingReplacesTheDefaults() {
        let configuration = ConfigFile.parse("[keys]\ncreate = [\"c\"]\nhelp = [\"F1\", \"Ctrl-H\"]\n")
        #expect(
            configuration.problems.map(\.description) == [
                "config.toml:3: Ctrl-H reaches tabshell as Bksp (terminals send the same byte): write \"Bksp\"; `help` keeps its default."
            ])
        #expect(configuration.keyOverrides == KeyOverrides(["create": [.character("c")]]))
        var state = AppState()
        state.keyOverrides = configuration.keyOverrides
        #expect(KeyMap.action(for: .character("c"), in: state) == .tabChosen(.create))
        #expect(KeyMap.action(for: .character("2"), in: state) == nil)
        #expect(KeyMap.action(for: .character("+"), in: state) == nil)
        #expect(KeyMap.hints(for: state, unicode: true).contains { $0.keys == "c" && $0.hint == "create" })
        #expect(KeyMap.helpLines(in: state, unicode: true).contains(.binding(keys: "c", help: "+ Create: open capture mode")))
    }

    @Test func anEmptyListUnbindsButNotAnEssentialAction() {
        let configuration = ConfigFile.parse("[keys]\nclear_history = []\nquit = []\n")
        #expect(configuration.keyOverrides == KeyOverrides(["clear_history": []]))
        #expect(problems("[keys]\nclear_history = []\nquit = []\n") == ["config.toml:3: `quit` must keep a key (without it a screen could not be left); it keeps its default."])
        var state = AppState()
        state.selectedTab = .history
        state.keyOverrides = configuration.keyOverrides
        #expect(KeyMap.action(for: .character("D"), in: state) == nil)
        #expect(!KeyMap.helpLines(in: state, unicode: true).contains { if case let .binding(_, help) = $0 { help.hasPrefix("Clear History") } else { false } })
    }

    @Test func everyKindOfKeysProblemSaysItsLine() {
        let text = """
            [keys]
            creat = ["c"]
            capture_typing = ["x"]
            create = "c"
            search = [
              "/",
              "Hyper-x",
              3,
            ]
            history_mode = ["Ctrl-I"]
            help = ["?", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12", "F13", "F14", "F15", "F16"]
            """
        #expect(
            problems(text) == [
                "config.toml:2: unknown action `creat` in [keys] (did you mean `create`?); docs/keys.md and `tabshell config default` list them.",
                "config.toml:3: `capture_typing` cannot be rebound: its keys are what it does (typing, pasting, editing, a question's letters).",
                "config.toml:4: `create` takes a list of keys, like create = [\"2\"].",
                "config.toml:7: unknown key \"Hyper-x\" for `search`: write keys as docs/keys.md does (c, ?, Space, Enter, Esc, Tab, S-Tab, Up, PgDn, F1, Ctrl-D, Alt-x); it keeps its default.",
                "config.toml:8: `search`'s keys are strings, like \"c\" or \"Ctrl-D\"; it keeps its default.",
                "config.toml:10: Ctrl-I reaches tabshell as Tab (terminals send the same byte): write \"Tab\"; `history_mode` keeps its default.",
                "config.toml:11: `help` lists 17 keys; at most 16. It keeps its default.",
            ])
        #expect(ConfigFile.parse(text).keyOverrides == .none)
    }

    @Test func twoActionsOnOneKeyNameBothLines() {
        let text = "[keys]\ncreate = [\"c\"]\n\nhistory_mode = [\"c\"]\n"
        let configuration = ConfigFile.parse(text)
        #expect(
            configuration.problems.map(\.description) == [
                "config.toml:4: \"c\" is bound to both `create` (config.toml:2) and `history_mode` (config.toml:4) in History; both keep their defaults."
            ])
        #expect(configuration.keyOverrides == .none)
        // Not a clash where they never act together: Inbox's grouping and History's mode.
        #expect(problems("[keys]\ninbox_group = [\"x\"]\nhistory_mode = [\"x\"]\n").isEmpty)
    }

    @Test func aKeyAnotherActionHasByDefaultIsAClash() {
        let configuration = ConfigFile.parse("[keys]\nmove_up = [\"b\"]\n")
        #expect(configuration.keyOverrides == .none)
        #expect(
            configuration.problems.map(\.description) == [
                "config.toml:2: \"b\" is bound to `move_up` here and, by default, to `inbox_group` in Inbox, `history_mode` in History and `kind_barcode` in Capture: choose a kind: rebind those too or choose another key; `move_up` keeps its default."
            ])
        // Moving the other one away first resolves it.
        #expect(problems("[keys]\nmove_up = [\"w\"]\ninbox_group = [\"Ctrl-G\"]\nhistory_mode = [\"m\"]\n").isEmpty)
        // A swap is no clash.
        #expect(problems("[keys]\nmove_up = [\"j\"]\nmove_down = [\"k\"]\n").isEmpty)
    }

    @Test func aPrintableKeyCannotActWhereItIsTyped() {
        #expect(
            problems("[keys]\ncapture_done = [\"d\"]\n") == [
                "config.toml:2: \"d\" is typed as text in Capture: barcode, where `capture_done` acts too: bind it to a key that types nothing there (Ctrl-…, F…); it keeps its default."
            ])
        #expect(problems("[keys]\ncapture_done = [\"Ctrl-S\"]\n").first?.contains("`capture_skip`") == true)
        #expect(problems("[keys]\ncapture_done = [\"F10\", \"Alt-d\"]\n").isEmpty)
    }

    @Test func linesOfKeysInsideInlineTablesAndQuotedNames() {
        #expect(problems("\n[keys]\n\"creat\" = [\"c\"]\n").first?.hasPrefix("config.toml:3:") == true)
        #expect(problems("\nkeys = { creat = [\"c\"] }\n").first?.hasPrefix("config.toml:2:") == true)
        #expect(problems("keys.creat = [\"c\"]\n").first?.hasPrefix("config.toml:1:") == true)
        // A string that looks like a key is not one.
        let tricky = "theme = \"\"\"\nbogus = 1\n\"\"\"\n[keys]\nquit = ['q'] # bogus = 2\nbogus = 3\n"
        #expect(problems(tricky).first?.hasPrefix("config.toml:1: unknown theme") == true)
        #expect(problems(tricky).last?.hasPrefix("config.toml:6: unknown action `bogus`") == true)
    }

    @Test func theKeysInForceShowInHintsHelpAndCapturesList() throws {
        let configuration = ConfigFile.parse("[keys]\nnext_tab = [\"Tab\"]\ncapture_done = [\"F10\"]\ncapture_keys_in_field = [\"F2\"]\n")
        #expect(configuration.problems.isEmpty)
        var state = AppState()
        state.keyOverrides = configuration.keyOverrides
        // A rebound pair no longer shows both arrows.
        #expect(KeyMap.hints(for: state, unicode: true).contains { $0.keys == "Tab" && $0.hint == "tabs" })
        #expect(KeyMap.hints(for: AppState(), unicode: true).contains { $0.keys == "←→" && $0.hint == "tabs" })
        _ = state.send(try #require(KeyMap.action(for: .character("2"), in: state)))
        _ = state.send(try #require(KeyMap.action(for: .character("b"), in: state)))
        #expect(KeyMap.hints(for: state, unicode: true).contains { $0.keys == "F10" && $0.hint == "done" })
        #expect(KeyMap.action(for: .control("d"), in: state) == nil)
        #expect(KeyMap.action(for: .function(10), in: state) == .capture(.doneTapped))
        _ = state.send(try #require(KeyMap.action(for: .function(2), in: state)))
        let list = KeyMap.helpLines(for: KeyMap.captureContexts(for: state) + [.global], in: state, unicode: true)
        #expect(list.contains(.binding(keys: "F10", help: "Done: save the capture")))
        #expect(!list.contains { if case let .binding(keys, _) = $0 { keys == "Ctrl-D" } else { false } })
        // docs/keys.md's generator takes the keys in force too.
        let bound = KeyContext.allCases.flatMap { KeyMap.bindings(for: $0, in: nil, overrides: configuration.keyOverrides) }
        #expect(bound.contains { $0.label(unicode: true) == "F10" && $0.help == "Done: save the capture" })
    }

    @Test func problemsShowOnTheStatusLineOnceEachOneAfterAnother() {
        var state = AppState()
        state.pendingNotices = ["config.toml:2: one", "config.toml:5: two"]
        _ = state.send(.redrawRequested)
        #expect(state.status?.text == "config.toml:2: one")
        _ = state.send(.redrawRequested)
        #expect(state.status?.text == "config.toml:2: one", "a note stays until something clears it")
        _ = state.send(.nextTabRequested)
        #expect(state.status?.text == "config.toml:5: two")
        _ = state.send(.nextTabRequested)
        #expect(state.status == nil)
        #expect(state.pendingNotices.isEmpty)
    }

    // MARK: - The key table's names

    @Test func everyNameHasTheSameDefaultsEverywhereAndDefaultsNeverClash() {
        var defaults: [String: [Key]] = [:]
        for (context, binding) in KeyMap.allDefaultBindings {
            #expect(binding.name.allSatisfy { $0.isASCII && ($0.isLowercase || $0 == "_") }, "\(binding.name)")
            if let earlier = defaults[binding.name], binding.isRebindable {
                #expect(earlier == binding.keys, "\(binding.name) in \(context)")
            }
            defaults[binding.name] = defaults[binding.name] ?? binding.keys
        }
        for group in KeyMap.contextGroups {
            var owners: [Key: String] = [:]
            for binding in group.flatMap({ KeyMap.defaultBindings(for: $0) }) {
                for key in binding.keys {
                    #expect(
                        owners[key] == nil || owners[key] == binding.name || KeyMap.mayShareKeys(owners[key] ?? "", binding.name),
                        "\(key.label()) in \(group): \(owners[key] ?? "") and \(binding.name)")
                    owners[key] = binding.name
                }
            }
        }
        #expect(KeyMap.essentialActions.isSubset(of: Set(KeyMap.actionNames)))
    }

    // MARK: - Key names

    @Test func keyNamesRoundTrip() throws {
        var keys: [Key] = KeyMap.allDefaultBindings.flatMap(\.binding.keys)
        keys += [.modified(.up, .control), .modified(.function(5), [.control, .shift]), .alt("x"), .alt(" "), .function(24), .insert, .control("]")]
        for key in keys {
            let name = KeyName.name(of: key)
            #expect(KeyName.key(named: name) == .success(key), "\(name)")
            #expect(KeyName.key(named: key.label(unicode: true)) == .success(key), "\(key.label(unicode: true))")
        }
        #expect(KeyName.key(named: "pgdn") == .success(.pageDown))
        #expect(KeyName.key(named: "ctrl-d") == .success(.control("d")))
        #expect(KeyName.key(named: "D") == .success(.character("D")))
        for bad in ["", "  ", "Hyper-x", "F0", "F25", "F01", "Ctrl-", "Ctrl-é", "Shift-a", "\u{1B}", "ab", "\u{202E}"] {
            #expect(KeyName.key(named: bad) == .failure(.unknown), "\(bad.debugDescription)")
        }
    }

    // MARK: - The default file

    @Test func theDefaultFilePassesItsOwnCheckAndChangesNothing() {
        let configuration = ConfigFile.parse(DefaultFile.text)
        #expect(configuration.problems.isEmpty, "\(configuration.problems.map(\.description))")
        #expect(configuration.options == .defaults)
        for (name, keys) in configuration.keyOverrides.keys {
            #expect(KeyMap.defaultKeys(of: name) == keys, "\(name)")
        }
        let rebindable = Set(KeyMap.allDefaultBindings.filter(\.binding.isRebindable).map(\.binding.name))
        #expect(Set(configuration.keyOverrides.keys.keys) == rebindable)
        for (context, binding) in KeyMap.allDefaultBindings {
            #expect(KeyMap.bindings(for: context, in: nil, overrides: configuration.keyOverrides).map(\.keys) == KeyMap.defaultBindings(for: context).map(\.keys))
            _ = binding
        }
    }

    // MARK: - Bounds and hostile bytes

    @Test func hostileFilesAreRefusedWithASentence() {
        #expect(ConfigFile.parse(Data(repeating: 0x20, count: ConfigFile.maximumBytes + 1)).problems.first?.message.contains("larger than") == true)
        #expect(ConfigFile.parse(Data([0x61, 0x3D, 0x31, 0x0A, 0xFF, 0xFE])).problems.map(\.line) == [2])
        #expect(ConfigFile.parse("theme = \"dark\"\n\u{0}").problems.map(\.line) == [2])
        #expect(ConfigFile.parse(String(repeating: "\n", count: ConfigFile.maximumLines + 1)).problems.first?.message.contains("lines") == true)
        // Deep nesting, long names and escape sequences in names: bounded, printable.
        #expect(!ConfigFile.parse("a = " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)).problems.isEmpty)
        let escape = ConfigFile.parse("\"\\u001b]52;c;AAAA\\u0007\" = 1\n[keys]\ncreate = [\"\\u001b[31m\"]\n")
        #expect(escape.problems.count == 2)
        for problem in escape.problems {
            #expect(!problem.description.unicodeScalars.contains { Sanitizer.isUnsafe($0) }, "\(problem.description.debugDescription)")
        }
        let long = ConfigFile.parse(String(repeating: "x", count: 5000) + " = 1\n")
        #expect(long.problems[0].description.count < 200)
    }

    @Test func manyProblemsAreCapped() {
        let text = (1...200).map { "bogus\($0) = 1" }.joined(separator: "\n")
        let found = ConfigFile.parse(text).problems
        #expect(found.count == ConfigFile.maximumProblems + 1)
        #expect(found.last?.description == "config.toml: 150 more problems not shown.")
    }

    @Test func randomBytesNeverCrashAndAlwaysSayALine() {
        var generator = SplitMix64(seed: 26)
        let alphabet = Array("[]{}=\"'#.,\n \\abcdefkeysthemequit_-0123456789\u{0}\u{1B}é".utf8)
        for _ in 0..<300 {
            let count = Int.random(in: 0..<200, using: &generator)
            let bytes = (0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
            let configuration = ConfigFile.parse(Data(bytes))
            for problem in configuration.problems {
                #expect(problem.description.hasPrefix("config.toml:"))
                #expect(!problem.description.unicodeScalars.contains { Sanitizer.isUnsafe($0) })
            }
        }
    }

    // MARK: - The path

    @Test func thePathFollowsXDG() throws {
        #expect(ConfigFile.path(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/tabshell/config.toml")
        #expect(ConfigFile.path(environment: ["XDG_CONFIG_HOME": "", "HOME": "/h"]) == "/h/.config/tabshell/config.toml")
        #expect(ConfigFile.path(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/tabshell/config.toml")
        #expect(ConfigFile.path(environment: [:]) == nil)
        let folder = try TemporaryFolder()
        guard case .absent = ConfigFile.load(environment: ["XDG_CONFIG_HOME": folder.path]) else {
            Issue.record("a missing file is absent")
            return
        }
        try FileManager.default.createDirectory(atPath: folder.path("tabshell"), withIntermediateDirectories: true)
        _ = try folder.write("[keys]\ncreate = [\"c\"]\n", to: "tabshell/config.toml")
        let loaded = ConfigFile.load(environment: ["XDG_CONFIG_HOME": folder.path])
        #expect(loaded.configuration.keyOverrides == KeyOverrides(["create": [.character("c")]]))
    }
}

extension ConfigFile {
    /// The configuration `text` holds, as its UTF-8 bytes read.
    static func parse(_ text: String) -> Configuration {
        parse(Data(text.utf8))
    }
}
