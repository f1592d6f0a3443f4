// swift-tools-version:6.1
import PackageDescription

// Module graph (arrows = "imports"):
//   tui -> Render -> TabShell -> CaptureMode -> Scanning
//   tui -> SQLiteStorage -> Storage, GRDB   (SQLite, the embedded default engine: AppDatabase)
//   Storage -> TabShell, CaptureMode, Scanning   (the storage core, no engine: RecordStore, the
//          limits, staging and recovery, the history walk, import and export text; issue #25)
//   tui -> TerminalInput -> TabShell   (bytes from the terminal -> keys, mouse, pastes)
//   tui -> Runtime -> Storage, PhotoPreview, PhotoCodes   (effects performed off the model; copies,
//          previews and codes from photos made off the loop)
//   tui -> SSHServer, CNcursesw, CCrashGuard
//   Scanning (scanner input: AIM prefixes, GS1 element strings, plain codes, layouts): Foundation only
//   PhotoPreview -> CChafa, CVipsShim -> CVips   (photo previews, issue #15; see docs/photo-preview.md)
//   PhotoCodes -> PhotoPreview, CZbar, CVipsShim   (barcodes read from photos, issue #14; docs/scanning.md)
//   SSHServer -> CPty, NIOSSH, NIOPosix, Crypto, Logging   (`tabshell serve`, issue #13; docs/ssh-server.md)
//   tui -> PostgresStorage -> Storage, TabShell, CaptureMode, PostgresNIO, Logging   (PostgreSQL as a
//          second engine beside SQLiteStorage, behind Storage's RecordStore, issue #16;
//          docs/postgres.md). Runtime knows only RecordStore; tui chooses the engine from --db /
//          TABSHELL_DATABASE_URL.
// TabShell, CaptureMode, Render, TerminalInput and Scanning import Foundation (and each other)
// only: no files, no SQLite, no curses. Nothing imports tui. docs/architecture.md has the table.
// PhotoPreview imports Foundation and the two C modules only: no curses, no storage.
// PhotoCodes takes PhotoPreview's header reading and limits, decodes grey through CVipsShim
// and scans with zbar; it draws nothing and stores nothing.
// TestSupport (Tests/TestSupport): what several test targets share (the fuzz tests' seeded generator).
// SSHServer knows nothing of the app: the app hands it a launcher closure and an
// authorization policy, and it hands back a peer identity and a pseudo-terminal.
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
    ],
    targets: [
        .target(name: "CaptureMode", dependencies: ["Scanning"]),
        .target(name: "Scanning"),
        .target(name: "TabShell", dependencies: ["CaptureMode"]),
        .target(name: "Render", dependencies: ["TabShell", "CaptureMode"]),
        .target(name: "TerminalInput", dependencies: ["TabShell"]),
        // The storage core, linking no engine (issue #25): RecordStore and its value types,
        // StorageError, the domain's limits and the schemas' value lists, staging and recovery,
        // the history walk, import and export text.
        .target(name: "Storage", dependencies: ["TabShell", "CaptureMode", "Scanning"]),
        // SQLite, the embedded default engine: AppDatabase (a RecordStore and MediaSweeping over
        // an injected GRDB writer), its migrations and statements, doctor, demo and benchmark data.
        .target(
            name: "SQLiteStorage",
            dependencies: ["Storage", "TabShell", "CaptureMode", "Scanning", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // PostgreSQL as a second engine (issue #16; docs/postgres.md): PostgresStore (a RecordStore),
        // locations, connections, schema and migrations, the change listener.
        .target(
            name: "PostgresStorage",
            dependencies: [
                "Storage", "TabShell", "CaptureMode",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                // SHA-256 of photos and of `db copy`'s checksums (postgres-nio uses it too).
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "Runtime",
            dependencies: ["TabShell", "CaptureMode", "Storage", "PhotoPreview", "PhotoCodes", .product(name: "Logging", package: "swift-log")]
        ),
        // The module map links ncursesw and tinfo; no pkgConfig, whose -D flags SwiftPM refuses anyway.
        .systemLibrary(name: "CNcursesw"),
        .target(name: "CCrashGuard"),
        // chafa's pkg-config entry gives only -I flags (its own and GLib's), which SwiftPM accepts.
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev"])]),
        // vips' own pkg-config entry adds -pthread, which SwiftPM prohibits (a warning on every
        // build). Its headers are in /usr/include and need only GLib's paths: gobject-2.0 gives them.
        .systemLibrary(name: "CVips", pkgConfig: "gobject-2.0", providers: [.apt(["libvips-dev"])]),
        // C wrappers over vips' variadic API; a C target is not autolinked, hence the libraries here.
        .target(
            name: "CVipsShim",
            dependencies: ["CVips"],
            linkerSettings: [.linkedLibrary("vips"), .linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0")]
        ),
        .target(name: "PhotoPreview", dependencies: ["CChafa", "CVipsShim"]),
        // zbar's pkg-config entry gives only -lzbar (its headers are in /usr/include): the module
        // map links it, and the provider names the Debian package for a missing library.
        .systemLibrary(name: "CZbar", providers: [.apt(["libzbar-dev"])]),
        .target(name: "PhotoCodes", dependencies: ["PhotoPreview", "CZbar", "CVipsShim"]),
        // fork + setsid + TIOCSCTTY + execve for session children: not safely doable in Swift.
        .target(name: "CPty"),
        .target(
            name: "SSHServer",
            dependencies: [
                "CPty",
                .product(name: "NIOSSH", package: "swift-nio-ssh"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "tui",
            dependencies: [
                "TabShell", "CaptureMode", "Render", "Storage", "SQLiteStorage", "PostgresStorage", "Runtime", "TerminalInput", "CNcursesw",
                "CCrashGuard", "SSHServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What more than one test target uses (the fuzz tests' seeded generator).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "CaptureModeTests",
            dependencies: ["CaptureMode", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "ScanningTests",
            dependencies: ["Scanning", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "TabShellTests",
            dependencies: ["TabShell", "CaptureMode", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "RenderTests",
            dependencies: [
                "Render", "TabShell", "CaptureMode",
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "TerminalInputTests",
            dependencies: ["TerminalInput", "TabShell", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Storage", "SQLiteStorage", "PostgresStorage", "TabShell", "CaptureMode",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(
            name: "PostgresStorageTests",
            dependencies: [
                "PostgresStorage", "Storage", "SQLiteStorage", "TabShell", "CaptureMode",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "RuntimeTests",
            dependencies: ["Runtime", "Storage", "SQLiteStorage", "TabShell", "CaptureMode", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["Storage", "SQLiteStorage", "TabShell", "CaptureMode", "CPty"]),
        .testTarget(name: "PhotoPreviewTests", dependencies: ["PhotoPreview", "CVipsShim"]),
        .testTarget(name: "PhotoCodesTests", dependencies: ["PhotoCodes", "PhotoPreview", "CVipsShim", "CZbar", "Scanning"]),
        .testTarget(
            name: "CommandTests",
            dependencies: [
                "tui", "Storage", "SQLiteStorage", "TabShell", "CaptureMode", "SSHServer", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Golden"]
        ),
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
            dependencies: ["tui", "TabShell", "Render", "CNcursesw", "CCrashGuard", .product(name: "Logging", package: "swift-log")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
