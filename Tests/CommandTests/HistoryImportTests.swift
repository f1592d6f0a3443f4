import CaptureMode
import Domain
import Foundation
import Runtime
import SQLiteStorage
import TabShell
import Testing

@testable import Storage
@testable import TabShellCommands

#if canImport(Glibc)
import Glibc
#endif

/// What other people type, at its worst: escape sequences (a screen clear, a clipboard write
/// through OSC 52), a bell, a C1 CSI, bidi overrides and isolates, DEL, a backslash that looks
/// like an escape, the CSV's own separators, CR LF, a lone CR, a tab, a line separator.
enum Hostile {
    static let text =
        "ESC \u{1B}[2J BEL \u{07} OSC52 \u{1B}]52;c;aGVsbG8=\u{07} C1 \u{9B}31m RLO \u{202E}exe.txt LRI \u{2066}x\u{2069} "
        + "DEL \u{7F} back\\slash \\u001b semi;colon \"quoted\", comma CRLF\r\nlone CR\rtab\there LS\u{2028}寿司"
    static let title = "Count aisle 4 \u{1B}]0;owned\u{07} \u{202E}kcab"
    /// A batch line typed as free text: a separator the scanner sent, `;` and `\`.
    static let freeCode = "SKU;7\\x\u{1D}y"
}

extension Workspace {
    /// One record of every kind, each committed through Done as the app commits it: a GS1 code
    /// from a scanner (by bo), two photos, a product with the catalog's name, a photo and the
    /// request it answers, a hostile note, and a batch of 3 codes and 4 scans. Their ids are 1…5.
    func everyKind() throws -> AppDatabase {
        let db = try AppDatabase.open(at: databaseURL)
        let catalog = url.appendingPathComponent("catalog.csv")
        try Data("5901234123457,Coffee beans \u{202E}gnp.exe,Roastery\n".utf8).write(to: catalog)
        let descriptor = open(catalog.path, O_RDONLY)
        _ = try db.importCatalog(from: descriptor)
        close(descriptor)
        let request = try db.addRequest(
            title: Hostile.title, body: Hostile.text, kind: .product, now: testNow.addingTimeInterval(-3600), createdBy: "ana",
            requester: "chef")

        func photos(_ sizes: [(Int, Int)]) throws -> StagingSession {
            let staging = try db.beginStaging()
            for (index, (width, height)) in sizes.enumerated() {
                let file = url.appendingPathComponent("photo-\(UUID().uuidString).png")
                try Data(DemoPNG.encode(width: width, height: height) { x, y in (UInt8(x * 9), UInt8(y * 7), UInt8(index * 60)) })
                    .write(to: file)
                _ = try staging.stage(fileAt: file.path, originalName: "shelf \(index + 1);\u{1B}[1m.png", maxBytes: 1 << 20)
            }
            return staging
        }
        let gs1 = Barcode(value: "(01)09506000134352(17)201225(10)AB;C1(21)S1", symbology: .gs1128)
        _ = try db.commitCapture(
            CaptureSubmission(kind: .barcode, barcode: gs1, codeSource: .scanner), now: testNow.addingTimeInterval(-3000), capturedBy: "bo")
        let two = try photos([(12, 8), (6, 10)])
        _ = try db.commitCapture(
            CaptureSubmission(kind: .photos, photos: two.photos), staging: two, now: testNow.addingTimeInterval(-2000), capturedBy: "ana")
        let one = try photos([(16, 16)])
        _ = try db.commitCapture(
            CaptureSubmission(
                kind: .product, barcode: Barcode(value: "5901234123457", symbology: .ean13), requestID: request, photos: one.photos,
                codeSource: .person),
            staging: one, now: testNow.addingTimeInterval(-1000), capturedBy: "ana")
        _ = try db.commitCapture(CaptureSubmission(kind: .note, note: Hostile.text), now: testNow.addingTimeInterval(-500))
        var batch = BatchLines()
        for code in [
            Barcode(value: "4006381333931", symbology: .ean13), Barcode(value: "(01)09506000134352(10)L;1", symbology: .gs1128),
            Barcode(value: "4006381333931", symbology: .ean13), Barcode(value: Hostile.freeCode, symbology: .freeText),
        ] {
            batch.add(code)
        }
        _ = try db.commitCapture(
            CaptureSubmission(kind: .batch, lines: batch.lines, codeSource: .scanner), now: testNow.addingTimeInterval(-100), capturedBy: "bo")
        return db
    }

    func export(_ format: String) -> String {
        let run = runCommand(["history", "export", "--format", format, "--db", databaseURL.path])
        #expect(run.status == 0, "\(run.message)")
        return run.output
    }

    /// `text` written to a file of this workspace; its path.
    func file(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}

@Suite(.serialized) struct HistoryImportTests {
    /// The records of a JSON export, one line each as JSON lines writes them.
    static func recordLines(ofJSON json: String) -> [String] {
        json.split(separator: "\n").dropFirst().dropLast().map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }
    }

    /// The photo paths a JSON export names, in order.
    static func photoPaths(_ json: String) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let records = try #require(object["records"] as? [[String: Any]])
        return records.flatMap { ($0["photos"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String } }
    }

    @Test func everyKindComesBackWholeFromEveryFormatTheFollowerAndTheOnCommitInput() throws {
        // Given a record of every kind, committed as Done commits them
        let source = try Workspace()
        let db = try source.everyKind()
        let json = source.export("json")
        let jsonl = source.export("jsonl")
        let csv = source.export("csv")

        // JSON lines, the follower and the on-commit command's input are the JSON export's records
        let lines = Self.recordLines(ofJSON: json)
        #expect(lines.count == 5)
        #expect(jsonl == lines.map { $0 + "\n" }.joined())
        let hook = CommitHook(command: "true", store: OpeningStore(db))
        #expect((1...5).map { hook.describe(Int64($0)) } == lines.map { Optional($0) }, "the on-commit input is the export's line")
        let follower = try FollowTests.Consumer(source, arguments: ["--since", "0"])
        try follower.waitFor(5)
        #expect(follower.stop(SIGINT) == 0)
        #expect(try String(contentsOf: follower.outputURL, encoding: .utf8) == jsonl, "the follower prints the same lines")

        // A batch carries its lines: code, symbology, count and GS1 fields
        let batch = try #require(try JSONSerialization.jsonObject(with: Data(lines[4].utf8)) as? [String: Any])
        let batchLines = try #require(batch["lines"] as? [[String: Any]])
        #expect(batchLines.map { $0["value"] as? String } == ["4006381333931", "(01)09506000134352(10)L;1", Hostile.freeCode])
        #expect(batchLines.map { $0["count"] as? Int } == [2, 1, 1])
        #expect(batchLines.map { $0["symbology"] as? String } == ["ean13", "gs1_128", "freeText"])
        #expect((batchLines[1]["gs1"] as? [String: String]) == ["01": "09506000134352", "10": "L;1"])
        #expect(batch["source"] as? String == "scanner")
        #expect(csv.contains("4006381333931;(01)09506000134352(10)L\\u003b1;SKU\\u003b7\\\\x\\u001dy,ean13;gs1_128;freeText,2;1;1,"))

        // When each export is imported into a fresh database and exported again
        for (format, text) in [("json", json), ("jsonl", jsonl), ("csv", csv)] {
            let target = try Workspace()
            let file = try target.file("export.\(format)", text)
            let run = runCommand(["history", "import", file, "--db", target.databaseURL.path])
            #expect(run.status == 0, "\(format): \(run.message) \(run.errors)")
            #expect(run.output == "Imported 5 records (and the request they answer).\n")

            // Then nothing is lost: every format says the same again, but for the photos' paths
            let again = target.export("json")
            #expect(
                target.normalize(again).replacing(#/"exportedAt":"[^"]*"/#, with: "") == source.normalize(json).replacing(#/"exportedAt":"[^"]*"/#, with: ""),
                "\(format) round trip")
            #expect(target.normalize(target.export("csv")) == source.normalize(csv), "\(format) round trip, as CSV")
            #expect(target.normalize(target.export("jsonl")) == source.normalize(jsonl), "\(format) round trip, as JSON lines")
            // The photos are copies of the same bytes, in the new database's own folder
            let (before, after) = (try Self.photoPaths(json), try Self.photoPaths(again))
            #expect(after.count == 3 && after.allSatisfy { $0.hasPrefix(target.url.path) })
            #expect(try before.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == after.map { try Data(contentsOf: URL(fileURLWithPath: $0)) })
            // and the app sees them as Done made them: the request answered, the batch counted
            let imported = try AppDatabase.open(at: target.databaseURL)
            let detail = try #require(try imported.recordDetail(id: 5))
            #expect(detail.lines.map(\.quantity) == [2, 1, 1])
            #expect(try imported.inbox().requests.first?.status == .done)
        }
    }

    @Test func aSecondImportAddsNothingAndADryRunWritesNothing() throws {
        let source = try Workspace()
        _ = try source.everyKind()
        let json = source.export("json")
        // As a file from before uids: each record is recognised by what it is
        let old = json.replacing(#/,"uid":"[^"]*"/#, with: "")
        let target = try Workspace()
        let db = target.databaseURL.path
        for text in [json, old] {
            let file = try target.file("export.json", text)
            let dry = runCommand(["history", "import", "--dry-run", file, "--db", db])
            #expect(dry.status == 0, "\(dry.message)")
            let first = text == json
            #expect(
                dry.output
                    == (first
                        ? "Would import 5 records (and the request they answer); nothing was written.\n"
                        : "Would import 0 records and skip 5 already present; nothing was written.\n"))
            if first {
                #expect(runCommand(["history", "list", "--db", db]).output.hasPrefix("No records"), "the dry run wrote nothing")
            }
            let run = runCommand(["history", "import", file, "--db", db])
            #expect(run.status == 0, "\(run.message)")
            #expect(
                run.output
                    == (first
                        ? "Imported 5 records (and the request they answer).\n" : "Imported 0 records; skipped 5 already present.\n"))
        }
        #expect(target.export("jsonl").split(separator: "\n").count == 5)
        #expect(runCommand(["inbox", "list", "--json", "--db", db]).output.components(separatedBy: "\"id\":").count == 2, "one request")
        // Into the store it came from: nothing new, the photos not even copied
        let back = runCommand(["history", "import", try source.file("again.json", json), "--db", source.databaseURL.path])
        #expect(back.output == "Imported 0 records; skipped 5 already present.\n")
    }

    /// One record and one request read as such: "1 record (and the request it answers)".
    @Test func theImportSentenceCountsInWords() {
        #expect(HistoryFileImport.imported(records: 1, requests: 1) == "Imported 1 record (and the request it answers).")
        #expect(HistoryFileImport.imported(records: 3, requests: 2) == "Imported 3 records (and the 2 requests they answer).")
        #expect(HistoryFileImport.imported(records: 5, requests: 1) == "Imported 5 records (and the request they answer).")
        #expect(HistoryFileImport.imported(records: 1, requests: 0) == "Imported 1 record.")
        #expect(HistoryFileImport.imported(records: 2, requests: 0, skipped: 3) == "Imported 2 records; skipped 3 already present.")
        #expect(
            HistoryFileImport.wouldImport(records: 1, requests: 1, skipped: 1)
                == "Would import 1 record (and the request it answers) and skip 1 already present; nothing was written.")
    }

    @Test func historyListShowsABatchByItsCodesAndScans() throws {
        let workspace = try Workspace()
        _ = try workspace.everyKind()

        let table = runCommand(["history", "list", "--db", workspace.databaseURL.path])
        let json = runCommand(["history", "list", "--json", "--db", workspace.databaseURL.path])

        let row = try #require(table.output.split(separator: "\n").first { $0.hasPrefix(" 5  batch") })
        #expect(row.contains("3 codes, 4 scans"), "\(row)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let records = try #require(object["records"] as? [[String: Any]])
        let batch = try #require(records.first { $0["kind"] as? String == "batch" })
        #expect((batch["lines"] as? [[String: Any]])?.map { $0["count"] as? Int } == [2, 1, 1])
        #expect(batch["barcode"] is NSNull)
    }

    /// Nothing in any output of the history and inbox commands is a character a terminal acts
    /// on, other than CSV's own line ends and tabs, and the CSV loses nothing for it.
    @Test func noOutputCarriesAControlCharacterAndCSVStaysExact() throws {
        let workspace = try Workspace()
        _ = try workspace.everyKind()
        let path = workspace.databaseURL.path
        let csv = workspace.export("csv")
        let outputs: [(String, String)] = [
            ("json", workspace.export("json")), ("jsonl", workspace.export("jsonl")), ("csv", csv),
            ("history list", runCommand(["history", "list", "--db", path]).output),
            ("history list --json", runCommand(["history", "list", "--json", "--db", path]).output),
            ("inbox list", runCommand(["inbox", "list", "--db", path]).output),
            ("inbox list --json", runCommand(["inbox", "list", "--json", "--db", path]).output),
        ]
        for (name, text) in outputs {
            let scalars = Array(text.unicodeScalars)
            for (index, scalar) in scalars.enumerated() where Sanitizer.isUnsafe(scalar) {
                let allowed =
                    scalar == "\n" || (name == "csv" && (scalar == "\t" || (scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n")))
                #expect(allowed, "\(name) writes U+\(String(scalar.value, radix: 16)) raw")
            }
        }
        // The same CSV on a terminal and in a file: nothing left to scrub
        #expect(runCommand(["history", "export", "--format", "csv", "--db", path], outputIsTerminal: true).output == csv)
        // and the note reads back exactly
        let rows = try csvRows(csv)
        let note = try #require(rows.first { $0[1] == "note" }?[5])
        #expect(CSVText.unescaped(note[...]) == Hostile.text)
        #expect(note.contains("ESC \\u001b[2J BEL \\u0007 OSC52 \\u001b]52;c;aGVsbG8=\\u0007 C1 \\u009b31m RLO \\u202eexe.txt"))
        #expect(note.contains("back\\\\slash \\\\u001b semi;colon") && note.contains("CRLF\r\nlone CR\\u000dtab\there LS\\u2028"))
    }

    @Test func csvEscapesComeBackExactly() {
        let alphabet: [Unicode.Scalar] = [
            "a", "\\", "u", "0", "1", "b", ";", ",", "\"", "\t", "\n", "\r", "\u{0}", "\u{1B}", "\u{7}", "\u{7F}", "\u{85}", "\u{9B}",
            "\u{200E}", "\u{202E}", "\u{2066}", "\u{2028}", "\u{061C}", "é", "寿", "🍣",
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...12, using: &generator) { text.append(alphabet.randomElement(using: &generator) ?? "a") }
            let original = String(text)
            for listItem in [false, true] {
                let escaped = CSVText.escaped(original, listItem: listItem)
                #expect(CSVText.unescaped(escaped[...]) == original, "\(original.debugDescription)")
                let written = Array(escaped.unicodeScalars)
                for (index, scalar) in written.enumerated() where Sanitizer.isUnsafe(scalar) {
                    #expect(scalar == "\n" || scalar == "\t" || (scalar == "\r" && written.indices.contains(index + 1) && written[index + 1] == "\n"))
                }
                if listItem { #expect(!escaped.contains(";")) }
            }
        }
        #expect(CSVText.listItems("a\\u003bb;\\\\;") == ["a;b", "\\", ""])
        #expect(CSVText.unescaped("bad \\x"[...]) == nil && CSVText.unescaped("short \\u12"[...]) == nil)
        #expect(JSONString.quoted("rlo \u{202E} alm \u{061C}") == "\"rlo \\u202e alm \\u061c\"", "JSON escapes bidi controls too")
    }

    @Test func aMissingPhotoRefusesTheWholeImportAndSaysWhich() throws {
        let source = try Workspace()
        _ = try source.everyKind()
        let json = source.export("json")
        let missing = try #require(try Self.photoPaths(json).last)
        try FileManager.default.removeItem(atPath: missing)
        let target = try Workspace()
        let file = try target.file("export.json", json)

        let run = runCommand(["history", "import", file, "--db", target.databaseURL.path])

        #expect(run.status == 1)
        #expect(run.errors == "\(file): records[2]: photos[0]: \(missing) does not exist (photos are read from the paths the export names).\n")
        #expect(run.message.contains("1 problem in \(file); nothing was imported."))
        #expect(target.export("json").contains("\"recordCount\":0"), "all or nothing")
        let staging = target.databaseURL.path + ".files/staging"
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []).isEmpty, "the photos staged are gone again")
    }

    @Test func problemsAreListedByRecordCappedAndPrintable() throws {
        let workspace = try Workspace()
        // Thirty wrong records, one of them with a key that holds an escape sequence
        var lines = (0..<30).map { "{\"kind\":\"barcode\",\"barcode\":{\"value\":\"1\",\"symbology\":\"nope\(String(repeating: "!", count: $0))\"}}" }
        lines[0] = "{\"kind\":\"note\",\"note\":\"x\",\"\\u001b]0;t\\u0007\":1}"
        let file = try workspace.file("bad.jsonl", lines.joined(separator: "\n") + "\n")

        let run = runCommand(["history", "import", file, "--db", workspace.databaseURL.path])

        #expect(run.status == 1)
        let printed = run.errors.split(separator: "\n")
        #expect(printed.count == 21)
        #expect(printed[0] == "\(file): records[0]: unknown key \"\u{241B}]0;t\u{2407}\".")
        #expect(printed[1].hasPrefix("\(file): records[1]: \"barcode.symbology\" \"nope!\" is not a symbology"))
        #expect(printed[20] == "\(file): … and 10 more.")
        #expect(run.message.contains("30 problems in \(file); nothing was imported."))
        #expect(!run.errors.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test func aFileThatIsNotWholeOrNotAnExportIsRefused() throws {
        let source = try Workspace()
        _ = try source.everyKind()
        let json = source.export("json")
        let target = try Workspace()
        let db = target.databaseURL.path
        func problems(_ name: String, _ text: String, _ extra: [String] = []) throws -> String {
            let run = runCommand(["history", "import", try target.file(name, text), "--db", db] + extra)
            #expect(run.status == 1)
            return run.errors
        }

        // A JSON export cut short, the list's summary, a CSV with a broken escape, a format forced wrongly
        let cut = json.split(separator: "\n").prefix(3).joined(separator: "\n").dropLast() + "]}\n"
        #expect(try problems("cut.json", String(cut)).contains("\"recordCount\" is 5 but the file has 2 records: it is not whole."))
        let listed = runCommand(["history", "list", "--json", "--db", source.databaseURL.path]).output
        #expect(try problems("list.json", listed).contains("unknown key \"photoCount\" (history list prints a summary"))
        let csv = source.export("csv").replacingOccurrences(of: "4006381333931;", with: "4006381333931\\q;")
        // A CSV's problem names the line it is on (the note before it holds line breaks of its own)
        let csvLine = csv.components(separatedBy: "\r\n").firstIndex { $0.contains("4006381333931\\q;") }.map { $0 + 1 }
        #expect(csvLine == 8)
        let badCSV = try problems("bad.csv", csv)
        #expect(badCSV.contains("bad.csv: line 8: \"line_codes\" has a \\ that starts no escape"), "\(badCSV)")
        #expect(!badCSV.contains("records["))
        #expect(try problems("forced.json", json, ["--format", "csv"]).contains("Unknown column"))
        #expect(!FileManager.default.fileExists(atPath: db), "refused before any database is made")
    }
}

/// The rows of a CSV export, read as `history import` reads them.
func csvRows(_ csv: String) throws -> [[String]] {
    var reader = DelimitedReader(data: Data(csv.utf8), delimiter: UInt8(ascii: ","))
    var rows: [[String]] = []
    while let row = try reader.nextRow() { rows.append(row.fields) }
    return rows
}
