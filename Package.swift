// swift-tools-version:6.1
import PackageDescription

// Module graph (arrows = "imports"):
//   tui -> Render -> TabShell -> CaptureMode -> Domain -> Scanning
//   Domain -> Scanning   (the values every layer shares: records, requests, settings, capture
//          values, barcodes and products, the sanitiser, counts, cell sizes, a photo's preview
//          and how this terminal draws one; Foundation and Scanning only, so storage and the UI
//          both import it and neither imports the other)
//   tui -> SQLiteStorage -> Storage, Domain, GRDB, CSQLiteTuning   (SQLite, the embedded default engine:
//          AppDatabase; CSQLiteTuning sets SQLite's per-connection memory before its first use)
//   Storage -> Domain, Scanning   (the storage core, no engine and no UI module: RecordStore, the
//          limits, staging and recovery, the history walk, import and export text)
//   tui -> TerminalInput -> TabShell   (bytes from the terminal -> keys, mouse, pastes)
//   tui -> Runtime -> Storage, PhotoPreview, PhotoCodes   (effects performed off the model; copies,
//          previews and codes from photos made off the loop)
//   tui -> SSHServer
//   tui -> ServeMetrics -> Prometheus, CoreMetrics, NIOHTTP1   (`serve --metrics`: the Prometheus
//          backend, /metrics, /healthz and /readyz, the store's readiness loop; no UI, no engine)
//   SSHServer, ServePolicy -> CoreMetrics   (they count through swift-metrics' API only)
//   tui -> TabShellCommands -> Storage, SQLiteStorage, PostgresStorage, TerminalScreen, ServePolicy,
//          PhotoPreview, ArgumentParser, Logging   (each command, `CommandBody`: its name, help,
//          arguments and work; tui's groups list them; `photos add` refuses a damaged photo)
//   tui -> ServePolicy -> SSHServer, SQLiteStorage, Storage, TabShell, Logging   (`tabshell serve`'s
//          policy: allowed commands, person names and folders, the launcher, demo data sets)
//   tui -> TerminalScreen -> Render, TerminalInput, CNcursesw, CCrashGuard   (the curses adapter:
//          Terminal, the crash guard, the terminal probe; the only module that calls curses)
//   Scanning (scanner input: AIM prefixes, GS1 element strings, plain codes, layouts): Foundation only
//   PhotoPreview -> CImageStack, Domain, Crypto   (photo previews; docs/photo-preview.md;
//          it makes Domain's PreviewImage, which the model holds as it came; Domain's CellSize
//          is the box a preview fits, TabShell's CellBox)
//   PhotoCodes -> PhotoPreview, CImageStack   (barcodes read from photos; docs/scanning.md)
//   CImageStack: libvips, libchafa and libzbar, opened with dlopen on first use
//   MCPServer -> CLazyCurl   (libcurl opened on first use: Foundation's networking half, linked
//          through the MCP SDK, calls it through trampolines; -lcurl is as-needed, so not loaded at start)
//   SSHServer -> CPty, NIOSSH, NIOPosix, Crypto, Logging   (`tabshell serve`; docs/ssh-server.md)
//   Recording -> Domain   (asciicast v2: writing, reading, the replay filter and timeline;
//          its JSON strings are Domain's JSONString, the exports' writer)
//   Presenting (present/watch: watch codes, the bounded frames, the presenter's room and a
//          watcher's connection over Unix sockets): Foundation only;  tui -> Presenting
//   TabShellCommands -> MCPServer -> Storage, Domain, PhotoPreview, MCP (swift-sdk)   (`tabshell mcp`: the
//          Model Context Protocol door for agents over RecordStore; no curses; docs/agents.md)
//   tui -> Configuration -> TabShell, TOMLKit   (config.toml: options and key rebinding)
//   ServePolicy -> Recording, Presenting, CPty   (`serve --record DIR`; who may watch which code; an
//          upgrade's new server started with the listening socket handed on);  tui -> Recording, CPty   (`--record FILE`, `replay`)
//   tui -> PostgresStorage -> Storage, Domain, PostgresNIO, Logging   (PostgreSQL as a
//          second engine beside SQLiteStorage, behind Storage's RecordStore;
//          docs/postgres.md). Runtime knows only RecordStore; tui chooses the engine from --db /
//          TABSHELL_DATABASE_URL.
// Domain, TabShell, CaptureMode, Render, TerminalInput and Scanning import Foundation (and each
// other) only: no files, no SQLite, no curses. Nothing imports tui. docs/architecture.md
// has the table.
// PhotoPreview imports Foundation, CImageStack, Domain and Crypto (SHA-256) only: no curses,
// no storage.
// PhotoCodes takes PhotoPreview's header reading and limits, decodes grey through CImageStack
// and scans with zbar; it draws nothing and stores nothing.
// TestSupport (Tests/TestSupport): what the test targets share (temporary folders, child
// processes, the seeded generator, fuzz inputs, the tags). TestWorkers (Tests/TestWorkers): the
// storage tests' helper processes, a program rather than tests.
// Runtime, TerminalScreen -> ChildProcess   (the one place a child process is started with
//          posix_spawn: the on-commit command, `tmux show` for the clipboard note; libc and CPty's
//          close-from only);
//          SSHServer, ServePolicy, tui -> ChildProcess for its C argument vectors only (CPty
//          starts sessions, the session template and an upgrade's successor)
// SSHServer knows nothing of the app: the app hands it a launcher closure and an
// authorization policy, and it hands back a peer identity and a pseudo-terminal.

// Where libvips' and libchafa's headers find GLib's (the paths `pkg-config --cflags vips chafa`
// gives, Debian's multiarch layout). Given as flags, not as a system library's pkgConfig: SwiftPM
// would then link the libraries too, and CImageStack must not. For CImageStack's own
// C files only; its public headers include none of these, so nothing that imports it needs them.
#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
let imageStackHeaderFlags = [
    "/usr/include/glib-2.0", "/usr/lib/\(multiarch)/glib-2.0/include", "/usr/include/chafa", "/usr/lib/\(multiarch)/chafa/include",
].flatMap { ["-isystem", $0] }

let package = Package(
    name: "tabshell",
    products: [
        .executable(name: "tabshell", targets: ["tui"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing.git", from: "1.17.0"),
        .package(url: "https://github.com/apple/swift-nio-ssh.git", exact: "0.15.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.65.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", exact: "0.6.0"),
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk.git", exact: "0.12.1"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
    ],
    targets: [
        .target(name: "Domain", dependencies: ["Scanning"]),
        .target(name: "CaptureMode", dependencies: ["Domain", "Scanning"]),
        .target(name: "Scanning"),
        .target(name: "TabShell", dependencies: ["CaptureMode", "Domain", "Scanning"]),
        .target(name: "Render", dependencies: ["TabShell", "CaptureMode", "Domain", "Scanning"]),
        .target(name: "TerminalInput", dependencies: ["TabShell", "Domain"]),
        // config.toml: its path, TOML read with TOMLKit, options and [keys] checked
        // line by line into a `Configuration` and its problems; no curses, no storage.
        .target(name: "Configuration", dependencies: ["Scanning", "TabShell", "Domain", .product(name: "TOMLKit", package: "TOMLKit")]),
        // The storage core, linking no engine: RecordStore and its value types,
        // StorageError, the domain's limits and the schemas' value lists, staging and recovery,
        // the history walk, import and export text.
        .target(name: "Storage", dependencies: ["Domain", "Scanning"]),
        // sqlite3_config (variadic: not callable from Swift) for lean connections, once per process.
        .target(name: "CSQLiteTuning", linkerSettings: [.linkedLibrary("sqlite3")]),
        // SQLite, the embedded default engine: AppDatabase (a RecordStore and MediaSweeping over
        // an injected GRDB writer), its migrations and statements, doctor, demo and benchmark data.
        .target(
            name: "SQLiteStorage",
            dependencies: [
                "Storage", "Domain", "Scanning", "CSQLiteTuning", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // PostgreSQL as a second engine (docs/postgres.md): PostgresStore (a RecordStore),
        // locations, connections, schema and migrations, the change listener.
        .target(
            name: "PostgresStorage",
            dependencies: [
                "Storage", "Domain",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                // SHA-256 of photos and of `db copy`'s checksums (postgres-nio uses it too).
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "Runtime",
            dependencies: [
                "Scanning", "TabShell", "CaptureMode", "Domain", "Storage", "PhotoPreview", "PhotoCodes", "ChildProcess", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The module map links ncursesw and tinfo; no pkgConfig, whose -D flags SwiftPM refuses anyway.
        .systemLibrary(name: "CNcursesw"),
        .target(name: "CCrashGuard"),
        // The curses adapter: Terminal (draws frames, reads keys, mouse, pastes and
        // signals), the crash guard, the terminal probe. The only module that calls curses.
        .target(name: "TerminalScreen", dependencies: ["Domain", "Scanning", "CNcursesw", "CCrashGuard", "Render", "TabShell", "TerminalInput", "ChildProcess"]),
        // The child processes the app starts (posix_spawn, signals reset, a process group of its own).
        .target(name: "ChildProcess", dependencies: ["CPty"]),
        // The only code that touches libvips, libchafa and libzbar (docs/photo-preview.md,
        // "Loaded on first use"): C wrappers that open each library with dlopen the first time it is
        // needed and call it through dlsym'd tables, so nothing links them and a process that never
        // shows a photo maps none of them. Their headers are still read, for types and constants.
        // libcurl opened on first use: Foundation's networking half, which the MCP SDK imports,
        // refers to it, and a session must not map it and its 28 libraries at start.
        .target(
            name: "CLazyCurl", exclude: ["link"],
            linkerSettings: [.unsafeFlags(["-L", Context.packageDirectory + "/Sources/CLazyCurl/link"])]
        ),
        .target(name: "CImageStack", cSettings: [.unsafeFlags(imageStackHeaderFlags)]),
        .target(name: "PhotoPreview", dependencies: ["CImageStack", "Domain", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "PhotoCodes", dependencies: ["PhotoPreview", "CImageStack"]),
        // `tabshell mcp` (docs/agents.md): the Model Context Protocol door for AI agents, one more
        // front end over Storage's RecordStore (no curses): its tools file requests, wait for a
        // person's answer and hand back records with their photos (scaled through PhotoPreview).
        .target(
            name: "MCPServer",
            dependencies: [
                "Storage", "Domain", "Scanning", "PhotoPreview", "CImageStack", "CLazyCurl", .product(name: "MCP", package: "swift-sdk"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // asciicast v2: the writer (UTF-8 carried across reads, size caps), the reader
        // (every malformed case said with its line), the filter for what a cast may not send to a
        // terminal, the replay timeline. Files only through CastFileRecorder; no terminal.
        .target(name: "Recording", dependencies: ["Domain"]),
        // present/watch: codes, bounded frames, the room a presenter opens and a
        // watcher's connection, over Unix sockets in a private folder. No terminal, no store.
        .target(name: "Presenting"),
        // fork + setsid + TIOCSCTTY + execve for session children: not safely doable in Swift.
        .target(name: "CPty"),
        .target(
            name: "SSHServer",
            dependencies: [
                "CPty", "ChildProcess",
                .product(name: "NIOSSH", package: "swift-nio-ssh"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                // Counts refusals and authentications (swift-metrics' API only; serve --metrics
                // boots the Prometheus backend in ServeMetrics).
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The serve policy: which commands a served key may run, who a person is and
        // their folder, the session launcher, demo data sets, the summary log on standard error.
        .target(
            name: "ServePolicy",
            dependencies: [
                "Domain", "TabShell", "Storage", "SQLiteStorage", "SSHServer", "Recording", "Presenting", "CPty", "ChildProcess", .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // `serve --metrics ADDR`: the Prometheus backend of swift-metrics, the HTTP endpoint
        // (/metrics, /healthz, /readyz over NIOHTTP1) and the store's readiness probe loop. No UI,
        // no curses, no engine: the probe is a closure the serve command hands it. Its listening
        // socket is made as SSHServer's is (close-on-exec, for upgrades in place).
        .target(
            name: "ServeMetrics",
            dependencies: [
                "SSHServer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the commands do, apart from their arguments: the context they run in,
        // output sinks, tables and listings, export encoding, following history, doctor's checks
        // and report, the scanner check, opening the store, the log file. tui's argument-parser
        // commands are shells over it.
        .target(
            name: "TabShellCommands",
            dependencies: [
                "Domain", "Scanning", "TabShell", "CaptureMode", "Storage", "SQLiteStorage", "PostgresStorage", "TerminalScreen", "ServePolicy", "MCPServer",
                "PhotoPreview", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "tui",
            dependencies: [
                "Domain", "Scanning", "TabShell", "CaptureMode", "Render", "Storage", "SQLiteStorage", "PostgresStorage", "Runtime", "TerminalInput", "TerminalScreen",
                "SSHServer", "ServePolicy", "TabShellCommands", "Recording", "CPty", "ChildProcess", "Configuration", "Presenting", "ServeMetrics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The binary exports no symbols: exported, its 54,000 Swift symbols made the runtime's
            // one dladdr at start (finding its own path) a 1 ms walk, in every process.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"])]
        ),
        // What more than one test target uses: temporary folders, child processes, the seeded
        // generator, the fuzz inputs, the tags (.e2e, .stress, .postgres) and the workers' names.
        .target(name: "TestSupport", dependencies: ["CPty"], path: "Tests/TestSupport"),
        // Calls CLazyCurl's trampolines from C, as the release binary's Foundation does (MCPServerTests).
        .target(name: "CLazyCurlProbe", dependencies: ["CLazyCurl"], path: "Tests/CLazyCurlProbe"),
        // The storage tests' helper processes (crash victim, session, migration, host): a
        // program, not tests, started by the tests from beside the test runner.
        .executableTarget(
            name: "TestWorkers",
            dependencies: ["Domain", "Scanning", "Storage", "SQLiteStorage", "PostgresStorage", "CaptureMode", "TabShell", "TestSupport"],
            path: "Tests/TestWorkers"
        ),
        .testTarget(
            name: "CaptureModeTests",
            dependencies: ["Domain", "Scanning", "CaptureMode", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "ScanningTests",
            dependencies: ["Scanning", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "TabShellTests",
            dependencies: ["Domain", "Scanning", "TabShell", "CaptureMode", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "RenderTests",
            dependencies: [
                "Domain", "Scanning", "Render", "TabShell", "CaptureMode", "TestSupport",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "TerminalInputTests",
            dependencies: ["Domain", "Scanning", "TerminalInput", "TabShell", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Domain", "Scanning", "Storage", "SQLiteStorage", "PostgresStorage", "TabShell", "CaptureMode", "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "PostgresStorageTests",
            dependencies: [
                "Domain", "Scanning", "PostgresStorage", "Storage", "SQLiteStorage", "TabShell", "CaptureMode", "TestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "RuntimeTests",
            dependencies: ["Domain", "Scanning", "Runtime", "Storage", "SQLiteStorage", "TabShell", "CaptureMode", "TestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["Domain", "Scanning", "Storage", "SQLiteStorage", "TabShell", "CaptureMode", "CPty", "Recording", "TestSupport"]),
        .testTarget(name: "RecordingTests", dependencies: ["Recording", "TestSupport"]),
        .testTarget(name: "ChildProcessTests", dependencies: ["ChildProcess"]),
        .testTarget(name: "ServeMetricsTests", dependencies: ["ServeMetrics", "TestSupport"]),
        .testTarget(name: "ConfigurationTests", dependencies: ["Domain", "Scanning", "Configuration", "TabShell", "TestSupport"]),
        .testTarget(name: "PresentingTests", dependencies: ["Domain", "Scanning", "Presenting", "TabShell", "Render", "TestSupport"]),
        .testTarget(
            name: "MCPServerTests",
            dependencies: [
                "Domain", "Scanning", "MCPServer", "CLazyCurl", "CLazyCurlProbe", "Storage", "SQLiteStorage", "TabShell", "CaptureMode", "TestSupport",
                .product(name: "MCP", package: "swift-sdk"),
            ]
        ),
        .testTarget(name: "PhotoPreviewTests", dependencies: ["Domain", "Scanning", "PhotoPreview", "CImageStack", "TestSupport"]),
        .testTarget(name: "PhotoCodesTests", dependencies: ["Domain", "PhotoCodes", "PhotoPreview", "CImageStack", "Scanning", "TestSupport"]),
        // CommandTests imports the libraries only (no test imports tui); BinaryTests, HelpTests and
        // ServeTests' served-command check run the built tabshell (.build/debug/tabshell).
        .testTarget(
            name: "CommandTests",
            dependencies: [
                "Domain", "Scanning", "tui", "TabShellCommands", "TerminalScreen", "ServePolicy", "Recording", "Storage", "SQLiteStorage", "TabShell", "CaptureMode", "SSHServer",
                "Presenting", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Golden"]
        ),
        // A program the SSH server's tests make a session template of (started from beside the runner).
        .executableTarget(name: "TemplateProbe", dependencies: ["CPty"], path: "Tests/TemplateProbe"),
        .testTarget(
            name: "SSHServerTests",
            dependencies: [
                "SSHServer", "CPty", "TestSupport",
                .product(name: "NIOSSH", package: "swift-nio-ssh"),
                .product(name: "NIOCore", package: "swift-nio"),
                // A NIOSSH client for what OpenSSH cannot send (a NUL in an exec command).
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "TerminalTests",
            dependencies: [
                "Domain", "Scanning", "TerminalScreen", "TabShellCommands", "TabShell", "Render", "CNcursesw", "CCrashGuard", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
