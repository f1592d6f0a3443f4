import Foundation
import Storage
import Testing

@testable import TabShellCommands

/// `photos add` refuses a damaged photo as capture does when it stages one: the same sentence,
/// status 1, nothing kept, an upload of that name left as it was.
@Suite struct PhotosAddDamageTests {
    static func gradient() -> Data {
        Data(DemoPNG.encode(width: 40, height: 30) { x, y in (UInt8(x * 6), UInt8(y * 8), 90) })
    }

    /// Runs `photos add NAME --as ana` in-process with `bytes` on standard input.
    static func add(_ name: String, _ bytes: Data, in workspace: Workspace) throws -> (output: String, error: (any Error)?) {
        let input = workspace.url.appendingPathComponent("input-\(UUID().uuidString.prefix(8))")
        try bytes.write(to: input)
        let descriptor = open(input.path, O_RDONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let output = StringOutput()
        let context = CommandContext(
            output: output, errors: StringOutput(), environment: ["LANG": "C.UTF-8"], now: { testNow }, outputIsTerminal: false,
            errorIsTerminal: false, readInput: { Data() }, terminalSize: { nil }, inputDescriptor: descriptor)
        let body = try parseCommand(["photos", "add", name, "--db", workspace.databaseURL.path, "--as", "ana"])
        do {
            try body.execute(context)
            return (output.text, nil)
        } catch {
            return (output.text, error)
        }
    }

    static func uploads(_ workspace: Workspace) -> String {
        workspace.url.appendingPathComponent("data/people/ana/uploads").path
    }

    @Test func aPhotoCutShortIsNotKeptAndSaysSoAsCaptureDoes() throws {
        let workspace = try Workspace()
        let whole = Self.gradient()

        let refused = try Self.add("broken.png", whole.prefix(whole.count / 2), in: workspace)

        #expect(refused.error.map { "\($0)" } == "broken.png was not added. This photo is damaged: it ends early.")
        #expect(refused.output == "")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: Self.uploads(workspace))) ?? []
        #expect(left.isEmpty, "nothing kept, no temporary file: \(left)")
    }

    @Test func aDamagedReplacementLeavesTheUploadOfThatNameAsItWas() throws {
        let workspace = try Workspace()
        let whole = Self.gradient()
        let kept = try Self.add("shelf.png", whole, in: workspace)
        #expect(kept.error == nil)
        #expect(kept.output.hasPrefix("Kept shelf.png: PNG 40x30"), "\(kept.output)")

        let refused = try Self.add("shelf.png", whole.prefix(whole.count - 20), in: workspace)

        #expect(refused.error.map { "\($0)" } == "shelf.png was not added. This photo is damaged: it ends early.")
        let stored = FileManager.default.contents(atPath: Self.uploads(workspace) + "/shelf.png")
        #expect(stored == whole)
    }

    @Test func theBinaryExitsWithStatus1AndTheSentence() throws {
        try #require(FileManager.default.isExecutableFile(atPath: BinaryTests.binary.path), "build tabshell first")
        let workspace = try Workspace()
        let whole = Self.gradient()
        try whole.prefix(whole.count / 2).write(to: workspace.url.appendingPathComponent("broken.png"))

        let result = try BinaryTests().shell(
            #"cd "$HOME" && "$TABSHELL" photos add broken.png --db "$DB" --as ana < broken.png"#, in: workspace)

        #expect(result.status == 1)
        #expect(result.out == "")
        #expect(result.err.contains("broken.png was not added. This photo is damaged: it ends early."), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: Self.uploads(workspace) + "/broken.png"))
    }
}
