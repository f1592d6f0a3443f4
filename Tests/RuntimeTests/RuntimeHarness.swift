import CaptureMode
import Dispatch
import Domain
import Foundation
import Logging
import Runtime
import SQLiteStorage
import Storage
import TabShell
import TestSupport

/// The app without a terminal, on a real database in a fresh temporary folder: keys in,
/// effects performed against storage and the file system, state out.
final class RuntimeHarness {
    /// The temporary folder, removed when the last harness using it goes.
    typealias Folder = TemporaryFolder

    let owner: Folder
    var folder: URL { owner.url }
    let database: AppDatabase
    let runtime: AppRuntime
    /// Signalled by background work (photo copies) when results are in the mailbox.
    private let woken = DispatchSemaphore(value: 0)

    /// A session on a new folder, or on `folder` (a second session on the same data).
    /// `person` and `uploads` as `tabshell serve` gives them (who captures; the only photo folder).
    init(
        settings: Settings = .default, size: ScreenSize = ScreenSize(rows: 24, columns: 80), folder: Folder? = nil,
        person: String? = nil, uploads: UploadFolder? = nil, previewTerminal: PreviewTerminal? = nil,
        onCommit: CommitHook? = nil, storage: StorageExecutor = .inline, store: ((AppDatabase) -> any RecordStore)? = nil,
        opening: ((AppDatabase) -> OpeningStore)? = nil
    ) throws {
        owner = try folder ?? Folder()
        database = try AppDatabase.open(at: owner.url.appendingPathComponent("tabshell.sqlite"))
        try database.saveSettings(settings)
        let woken = self.woken
        var logger = Logger(label: "RuntimeTests") { _ in SwiftLogNoOpLogHandler() }
        logger.logLevel = .critical
        var state = AppState(settings: settings, size: size, databaseLocation: owner.url.path)
        state.photosFromUploads = uploads != nil
        state.previewTerminal = previewTerminal
        runtime = AppRuntime(
            store: opening?(database) ?? OpeningStore(store?(database) ?? database), state: state, logger: logger, home: owner.url.path,
            previewCache: owner.url.appendingPathComponent("cache/previews", isDirectory: true), wake: { woken.signal() },
            person: person, uploads: uploads, onCommit: onCommit, storage: storage
        )
    }

    deinit {
        runtime.finish()
    }

    var state: AppState { runtime.state }

    /// Starts the session as the app does, with what recovery finds in the folder.
    func start() throws {
        runtime.start(recovery: try database.recover(now: Date()))
    }

    func press(_ keys: Key...) {
        for key in keys { runtime.press(key) }
    }

    func type(_ text: String) {
        for character in text { runtime.press(.character(character)) }
    }

    /// Fires every timer as if `seconds` had passed (auto-advance, highlights).
    func advance(seconds: Double) {
        runtime.fireDueTimers(now: .now.advanced(by: .milliseconds(Int(seconds * 1000))))
    }

    /// Waits for background work to post its results, then delivers them; false on timeout.
    @discardableResult
    func awaitBackgroundWork(until done: () -> Bool, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !done() {
            guard Date() < deadline else { return false }
            _ = woken.wait(timeout: .now() + .milliseconds(100))
            runtime.deliverMail()
        }
        return true
    }

    /// A small valid PNG on disk, for photo captures.
    func writePNG(named name: String) throws -> String {
        let bytes = DemoPNG.encode(width: 4, height: 3) { x, y in (UInt8(x * 60), UInt8(y * 80), 128) }
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// The staging folders under the data folder (each an open or left-over capture).
    func stagingFolders() -> [String] {
        let staging = database.media.stagingDirectory.path
        return ((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).filter { !$0.hasPrefix(".") }
    }
}
