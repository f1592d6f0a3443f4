import Foundation
import Testing

/// The structure that keeps the store off the loop: the model (TabShell, CaptureMode)
/// and the screen (Render) never see the store, and in the runtime only the effect runner's
/// storage queues call it; what else touches it is named here with the reason it may.
@Suite struct StoreReachTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    func swiftFiles(in module: String) throws -> [(name: String, text: String)] {
        let folder = Self.sources.appendingPathComponent(module)
        let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        return try enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map { url in
            (String(url.path.dropFirst(folder.path.count + 1)), try String(contentsOf: url, encoding: .utf8))
        }.sorted { $0.name < $1.name }
    }

    @Test(arguments: ["TabShell", "CaptureMode", "Render"])
    func theModelAndTheScreenNeverSeeTheStore(module: String) throws {
        let files = try swiftFiles(in: module)
        #expect(files.count > 3, "the folder is found")
        for file in files {
            let lines = file.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let imports = lines.filter { $0.hasPrefix("import ") }
            #expect(
                !imports.contains { ["import Storage", "import SQLiteStorage", "import PostgresStorage", "import GRDB"].contains($0) },
                "\(module)/\(file.name) imports a store")
            #expect(!file.text.contains("RecordStore"), "\(module)/\(file.name) names the store")
        }
    }

    @Test func inTheRuntimeOnlyTheEffectRunnerHoldsTheStore() throws {
        let files = try swiftFiles(in: "Runtime")
        let naming = Set(files.filter { $0.text.contains("RecordStore") }.map(\.name))
        // AppRuntime hands the store to the runner; CommitHook reads a record on its own
        // queue, after a Done; StorageQueue is where every other call runs; OpeningStore holds
        // the session's store while it opens.
        #expect(
            naming.isSubset(of: ["AppRuntime.swift", "EffectRunner.swift", "StorageQueue.swift", "CommitHook.swift", "OpeningStore.swift"]),
            "\(naming)")
        // The store is opened on the storage queue only (its first call), never on the loop.
        let opening = files.filter { $0.text.contains(".open()") }.map(\.name)
        #expect(opening == ["StorageQueue.swift"], "\(opening)")
        let runtime = try #require(files.first { $0.name == "AppRuntime.swift" })
        #expect(!runtime.text.contains("database."), "AppRuntime calls the store itself")
        // The runner's own calls outside its queues: none of them is a database round trip.
        let runner = try #require(files.first { $0.name == "EffectRunner.swift" })
        let direct = runner.text.split(separator: "\n").compactMap { line -> String? in
            guard let call = line.range(of: "database.") else { return nil }
            // Through the store once open (`store()`, which never waits for it, or `opened?`).
            var rest = line[call.upperBound...]
            for way in ["store().", "opened?."] where rest.hasPrefix(way) { rest = rest.dropFirst(way.count) }
            return String(rest.prefix { $0.isLetter })
        }
        // A staging folder, a draft's folder (resume, discard), the photo file for a preview
        // (called on the previewer's own threads): files of this host; the store's news of
        // commits elsewhere, asked for once (a watch, not a round trip).
        #expect(Set(direct).isSubset(of: ["beginStaging", "photoFile", "resumeDraft", "discardDraft", "changeHints"]), "\(direct)")
    }

    /// No key waits on a pending save: a key reaches the model through `press` (the key table,
    /// then `dispatch`) and nothing else, and Done's commit is the storage queue's, so a key
    /// pressed while it waits has no store call of its own in front of it.
    @Test func theKeyPathNeverWaitsOnTheStore() throws {
        let files = try swiftFiles(in: "Runtime")
        let runtime = try #require(files.first { $0.name == "AppRuntime.swift" })
        let press = try #require(runtime.text.range(of: "public func press("))
        let body = runtime.text[press.upperBound...].prefix { $0 != "}" }
        #expect(body.contains("KeyMap.action(for: key, in: state)") && body.contains("dispatch(action)"), "\(body)")
        #expect(!body.contains("runner.") && !body.contains("drain"), "press reaches the runner or waits: \(body)")
        let runner = try #require(files.first { $0.name == "EffectRunner.swift" })
        let lines = runner.text.split(separator: "\n").map(String.init)
        let commits = lines.indices.filter { lines[$0].contains("db.commitCapture(") }
        #expect(commits.count == 1, "one commit call")
        for line in commits {
            #expect(lines[max(0, line - 2)..<line].contains { $0.contains("storage.run(") }, "Done's commit runs on the storage queue")
        }
    }

    /// The reducer owns every state change: the runtime sets the state once, when it is made, and
    /// changes it only by sending actions (`state.send`, in `dispatch`); what it learns from the
    /// terminal, the store or the room comes back as actions too.
    @Test func theRuntimeChangesTheStateOnlyThroughTheReducer() throws {
        let files = try swiftFiles(in: "Runtime")
        let runtime = try #require(files.first { $0.name == "AppRuntime.swift" })
        let assignment = try NSRegularExpression(
            pattern: #"(?<![A-Za-z_])state(\.[A-Za-z_.]+)?\s*[+-]?=(?!=)|(?<![A-Za-z_])state\.[A-Za-z_.]+\.(append|remove|insert)\("#)
        let changes = runtime.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { line in
            !line.hasPrefix("//") && assignment.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil
        }
        #expect(changes == ["self.state = state"], "\(changes)")
        #expect(runtime.text.contains("state.send(action)"))
    }
}
