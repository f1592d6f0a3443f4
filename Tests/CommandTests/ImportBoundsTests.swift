import CaptureMode
import Domain
import Foundation
import SQLiteStorage
import TabShell
import Testing

@testable import Storage
@testable import TabShellCommands

/// `inbox import` and `history import` against files that ask the most (ImportLimits): more
/// entries than one import adds, one entry longer than any the app writes, a row of more fields
/// than any export has, more problems than are worth listing. Each bound is said in one sentence
/// and nothing is imported; a history at every field limit the app has still comes back whole.
/// What the bounds do to memory is measured by scripts/bench-import, not asserted here.
@Suite(.serialized) struct ImportBoundsTests {
    static let mebibyte = 1 << 20

    /// `count` copies of `entry` as a JSON array.
    static func jsonArray(_ entry: String, count: Int) -> String {
        "[" + Array(repeating: entry, count: count).joined(separator: ",") + "]"
    }

    // MARK: - inbox import

    @Test func moreRequestsThanOneImportAddsAreRefusedFromAFileAndFromStandardInput() throws {
        let workspace = try Workspace()
        let db = try AppDatabase.open(at: workspace.databaseURL)
        let text = Self.jsonArray(#"{"title":"t"}"#, count: ImportLimits.maximumRequests + 1)
        let file = try workspace.file("many.json", text)
        let sentence = "The file has more than 100,000 requests; import at most 100,000 at a time."

        let run = runCommand(["inbox", "import", file, "--db", workspace.databaseURL.path])
        #expect(run.status == 1)
        #expect(run.errors == "\(file): \(sentence)\n")
        #expect(run.message == "Error: 1 problem in \(file); nothing was imported.")

        // Served over SSH, the file comes on standard input.
        let piped = runCommand(["inbox", "import", "-", "--db", workspace.databaseURL.path], input: Data(text.utf8))
        #expect(piped.status == 1)
        #expect(piped.errors == "standard input: \(sentence)\n")
        #expect(try db.requestListing(limit: nil).isEmpty, "nothing was imported")
    }

    /// U+0000 in a field: SQLite would keep the text only up to it, PostgreSQL refuses the
    /// statement; the import names the record and the field, and writes nothing.
    @Test func aNULInAFieldIsAProblemOfItsRecordAndNothingIsCut() throws {
        let workspace = try Workspace()
        let db = try AppDatabase.open(at: workspace.databaseURL)
        let file = try workspace.file(
            "nul.json", #"[{"kind":"note","note":"fine"},{"kind":"note","note":"before\u0000after","capturedBy":"a\u0000"}]"#)

        let run = runCommand(["history", "import", file, "--db", workspace.databaseURL.path])

        #expect(run.status == 1)
        #expect(
            run.errors == """
                \(file): records[1]: "capturedBy" holds a NUL character (\\u0000), which tabshell cannot store.
                \(file): records[1]: "note" holds a NUL character (\\u0000), which tabshell cannot store.

                """)
        #expect(run.message == "Error: 2 problems in \(file); nothing was imported.")
        #expect(try db.historyPage(HistoryPageRequest(start: 0, count: 1)).totalCount == 0)

        let requests = try workspace.file("nul-requests.json", #"[{"title":"ok"},{"title":"a\u0000b","body":"\u0000"}]"#)
        let inbox = runCommand(["inbox", "import", requests, "--db", workspace.databaseURL.path])
        #expect(inbox.status == 1)
        #expect(
            inbox.errors == """
                \(requests): requests[1]: "title" holds a NUL character (\\u0000), which tabshell cannot store.
                \(requests): requests[1]: "body" holds a NUL character (\\u0000), which tabshell cannot store.

                """)
        #expect(try db.requestListing(limit: nil).isEmpty)
    }

    @Test func aRequestLongerThanAnyTheAppWritesIsAProblemAndTheOthersAreStillChecked() throws {
        let workspace = try Workspace()
        let db = try AppDatabase.open(at: workspace.databaseURL)
        let long = #"{"title":"a","body":""# + String(repeating: "x", count: Self.mebibyte) + #""}"#
        let file = try workspace.file("long.json", "[\(long), {\"title\":\"\"}, {\"title\":\"fine\"}]")

        let run = runCommand(["inbox", "import", file, "--db", workspace.databaseURL.path])

        #expect(run.status == 1)
        #expect(
            run.errors == """
                \(file): requests[0]: The request is longer than 1 MiB, more than any the app writes.
                \(file): requests[1]: "title" is empty.

                """)
        #expect(run.message == "Error: 2 problems in \(file); nothing was imported.")
        #expect(try db.requestListing(limit: nil).isEmpty)
    }

    @Test func pastAThousandProblemsTheFileIsReadNoFurther() throws {
        let workspace = try Workspace()
        let file = try workspace.file("numbers.json", Self.jsonArray("1", count: 50_000))

        let run = runCommand(["inbox", "import", file, "--db", workspace.databaseURL.path])

        #expect(run.status == 1)
        let printed = run.errors.split(separator: "\n")
        #expect(printed.count == 21)
        #expect(printed[0] == "\(file): requests[0]: expected an object with a \"title\".")
        #expect(printed[20] == "\(file): … and more: the file was read no further.")
        #expect(run.message == "Error: More than 1,000 problems in \(file); nothing was imported.")
    }

    @Test func theFileIsReadEntryByEntryWhateverItsShape() {
        // Brackets, braces, commas and escaped quotes inside strings; the list amid other members.
        let tricky = Data(
            """
            \u{FEFF} { "version" : 1 ,
              "requests" : [ {"title": "a ] } , [ {", "body": "say \\"hi\\" \\\\"},
                             {"title": "b", "kind": "note", "status": {"nested": [1, {"x": "]"}]}} ] }
            """.utf8)
        #expect(
            RequestImport.parse(tricky)
                == .requests([
                    NewRequest(title: "a ] } , [ {", body: "say \"hi\" \\", kind: .barcode), NewRequest(title: "b", kind: .note),
                ]))
        #expect(RequestImport.parse(Data("[]".utf8)) == .requests([]))
        for broken in ["[{\"title\":\"a\"}", "[{\"title\":\"a\"},]", "[{\"title\":\"a\"} {\"title\":\"b\"}]", "[{\"title\":\"a}]", "[1] x", ""] {
            #expect(RequestImport.parse(Data(broken.utf8)) == .problems([ImportProblem(index: nil, reason: RequestImport.notJSON)]), "\(broken)")
        }
        #expect(
            RequestImport.parse(Data(#"{"requests":[],"requests":[]}"#.utf8))
                == .problems([ImportProblem(index: nil, reason: "The object has \"requests\" twice.")]))
    }

    // MARK: - history import

    @Test(arguments: HistoryImport.Format.allCases) func moreRecordsThanOneImportAddsAreRefused(format: HistoryImport.Format) throws {
        let workspace = try Workspace()
        let count = ImportLimits.maximumRecords + 1
        let text =
            switch format {
            case .json: Self.jsonArray(#"{"kind":"note"}"#, count: count)
            case .jsonl: String(repeating: "{\"kind\":\"note\"}\n", count: count)
            case .csv: "kind\n" + String(repeating: "note\n", count: count)
            }
        let file = try workspace.file("many.\(format.rawValue)", text)

        let run = runCommand(["history", "import", file, "--dry-run", "--db", workspace.databaseURL.path])

        #expect(run.status == 1)
        #expect(run.errors == "\(file): The file has more than 250,000 records; import at most 250,000 at a time.\n")
        #expect(run.message == "Error: 1 problem in \(file); nothing was imported.")
        #expect(!FileManager.default.fileExists(atPath: workspace.databaseURL.path), "refused before any database is made")
    }

    @Test(arguments: HistoryImport.Format.allCases) func aRecordLongerThanAnyTheAppWritesIsAProblem(format: HistoryImport.Format) throws {
        let workspace = try Workspace()
        let note = String(repeating: "x", count: Self.mebibyte)
        let (text, first, second) =
            switch format {
            case .json:
                ("[{\"kind\":\"note\",\"note\":\"\(note)\"},\n{\"kind\":\"nope\"}]", "records[0]: The record", "records[1]:")
            case .jsonl: ("{\"kind\":\"note\",\"note\":\"\(note)\"}\n{\"kind\":\"nope\"}\n", "records[0]: The line", "records[1]:")
            case .csv: ("kind,note\nnote,\"\(note)\"\nnope,\n", "line 2: The row", "line 3:")
            }
        let file = try workspace.file("long.\(format.rawValue)", text)

        let run = runCommand(["history", "import", file, "--db", workspace.databaseURL.path])

        #expect(run.status == 1)
        #expect(
            run.errors == """
                \(file): \(first) is longer than 1 MiB, more than any the app writes.
                \(file): \(second) "kind" "nope" is not one of barcode, photos, product, note, batch.

                """)
        #expect(run.message == "Error: 2 problems in \(file); nothing was imported.")
    }

    @Test func aCSVRowOfMoreFieldsThanAnyExportIsAProblemOfItsLine() throws {
        let workspace = try Workspace()
        let file = try workspace.file(
            "wide.csv", "kind,note\nnote," + String(repeating: ",", count: ImportLimits.maximumFields) + "\nnote,fine\n")

        let run = runCommand(["history", "import", file, "--db", workspace.databaseURL.path])

        #expect(run.status == 1)
        #expect(run.errors == "\(file): line 2: the row has more than 10,000 fields.\n")
    }

    /// Whatever the app accepts comes back: a request's title and body and a note at their
    /// longest, in characters that the export escapes or that take many bytes each.
    @Test func aHistoryAtEveryFieldLimitImportsBackFromEveryFormat() throws {
        let source = try Workspace()
        let db = try AppDatabase.open(at: source.databaseURL)
        let request = try db.addRequest(
            title: String(repeating: "\u{1B}", count: StorageLimits.maximumTitleLength),
            body: String(repeating: "\u{202E}", count: StorageLimits.maximumBodyLength), kind: .note, now: testNow.addingTimeInterval(-60),
            requester: String(repeating: "\u{00E9}", count: StorageLimits.maximumRequesterLength))
        let family = "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"
        _ = try db.commitCapture(
            CaptureSubmission(kind: .note, note: String(repeating: family, count: StorageLimits.maximumNoteLength), requestID: request),
            now: testNow)
        _ = try db.commitCapture(
            CaptureSubmission(
                kind: .barcode, barcode: Barcode(value: String(repeating: "\u{7F}", count: BarcodeValidator.maximumLength), symbology: .freeText),
                note: String(repeating: "\\", count: StorageLimits.maximumNoteLength)),
            now: testNow.addingTimeInterval(1))

        for format in HistoryImport.Format.allCases {
            let target = try Workspace()
            let file = try target.file("history.\(format.rawValue)", source.export(format.rawValue))
            let run = runCommand(["history", "import", file, "--db", target.databaseURL.path])
            #expect(run.status == 0, "\(format): \(run.errors)\(run.message)")
            #expect(run.output == "Imported 2 records (and the request they answer).\n", "\(format)")
            #expect(target.export(format.rawValue) == source.export(format.rawValue), "\(format): the same records, uids and times")
        }
        let listed = runCommand(["inbox", "list", "--json", "--db", source.databaseURL.path]).output
        let target = try Workspace()
        let run = runCommand(["inbox", "import", "-", "--db", target.databaseURL.path], input: Data(listed.utf8))
        #expect(run.status == 0, "\(run.errors)\(run.message)")
    }
}
