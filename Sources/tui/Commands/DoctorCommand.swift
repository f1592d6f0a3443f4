import ArgumentParser
import Foundation
import Logging
import PostgresStorage
import SQLiteStorage
import Storage
import TabShell
import TerminalScreen

#if canImport(Glibc)
import Glibc
#endif

/// `tabshell doctor`: checks the terminal, the data folder and the database, and says how to fix
/// each problem. Changes nothing: the database is opened read-only, never migrated or swept.
struct DoctorCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the terminal, the data folder and the database; print a fix for each problem.",
        discussion: """
            Read-only: nothing is created, migrated, swept or repaired. Exits 0 when everything is fine and 1 \
            when a problem was found. Notes (marked "note") are worth knowing but not problems.
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Flag(
        help:
            "Run SQLite's full integrity_check (reads every page; slow on a big database) instead of quick_check; on PostgreSQL, check every photo's hash, not only the newest 100."
    )
    var full = false

    @Flag(help: "Check a barcode scanner instead: scan a test code and see its keyboard layout, suffix, AIM prefix, GS1 separator and speed.")
    var scanner = false

    /// Free space below this is a problem: a capture's photos and the WAL need room.
    static let minimumFreeBytes: Int64 = 100 << 20

    func execute(_ context: CommandContext) throws {
        let url = database.databaseURL(environment: context.environment)
        if scanner {
            // Read-only like the rest of doctor: the scan is read as it arrives, with no layout
            // undone, so a mismatch shows.
            let status = try ScannerCheck.run(context, settingsLayout: nil)
            if status != 0 { throw ExitCode(status) }
            return
        }
        var report = DoctorReport()
        checkTerminal(context, into: &report)
        if let text = database.postgresURL(environment: context.environment) {
            checkServer(text, context, into: &report)
            try finishing {
                try context.output.write(report.render(unicode: context.localeIsUTF8, width: context.outputIsTerminal ? context.terminalSize()?.columns : nil))
                try context.output.finish()
            }
            if report.problemCount > 0 { throw ExitCode(1) }
            return
        }
        let examination = AppDatabase.examine(at: url, fullIntegrityCheck: full)
        checkFiles(examination, into: &report)
        checkDatabase(examination, into: &report)
        // Logging appends to an existing data folder only; it never creates one.
        if FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path) {
            database.logger(beside: url).info("doctor", metadata: ["problems": "\(report.problemCount)"])
        }
        try finishing {
            try context.output.write(report.render(unicode: context.localeIsUTF8, width: context.outputIsTerminal ? context.terminalSize()?.columns : nil))
            try context.output.finish()
        }
        if report.problemCount > 0 { throw ExitCode(1) }
    }

    // MARK: - Terminal

    private func checkTerminal(_ context: CommandContext, into report: inout DoctorReport) {
        report.section("Terminal")
        let env = context.environment
        let term = env["TERM"] ?? ""
        var colors: Int?
        if term.isEmpty {
            report.problem("TERM is not set", fix: "set it to your terminal's type, e.g. export TERM=xterm-256color")
        } else if term == "dumb" {
            report.problem("TERM is \"dumb\": it cannot draw a full-screen app", fix: "run tabshell in a terminal emulator, or export TERM=xterm-256color")
        } else if let entry = Terminfo.find(term, environment: env) {
            colors = Terminfo.maxColors(at: entry)
            report.ok("TERM \(term) (terminfo \(entry))")
        } else {
            report.problem("no terminfo entry for TERM \(term)", fix: "install ncurses-term (apt-get install ncurses-term) or set TERM to a known type such as xterm-256color")
        }
        if let noColor = env["NO_COLOR"], !noColor.isEmpty {
            report.note("colours: off because NO_COLOR is set; tabshell draws in monochrome")
        } else if let colors {
            if colors >= 8 {
                report.ok("colours: \(colors)")
            } else {
                report.note("colours: none; tabshell draws in monochrome (selection in reverse video)")
            }
        }
        let noColor = !(env["NO_COLOR"] ?? "").isEmpty
        let probe = context.askTerminal()
        var answers: TerminalAnswers?, windowCellPixels: CellPixels?
        if case let .answered(found, cell) = probe { (answers, windowCellPixels) = (found, cell) }
        var previews = PreviewTerminal.detect(
            isUTF8: context.localeIsUTF8, colorCount: noColor ? 0 : colors ?? 0, environment: env, answers: answers,
            windowCellPixels: windowCellPixels)
        if probe == .notAsked, previews.automaticReason == PreviewTerminal.noAnswerReason { previews.automaticReason = "the terminal was not asked" }
        report.ok("photo previews: \(previews.describe(.automatic, usesColor: !noColor)) (Settings can choose blocks or off)")
        switch probe {
        case .notAsked:
            report.note(
                "graphics: not asked, standard output is not a terminal; run tabshell doctor in the terminal itself to learn whether it shows sixel, kitty or iTerm2 images")
        case .noAnswer:
            report.note("graphics: the terminal did not answer within 500 ms; the app waits 200 ms at start, then draws blocks until an answer comes")
        case let .answered(found, _):
            let name = found.terminalVersion.map { "\($0) answered" } ?? "the terminal answered"
            report.ok(
                "graphics: \(name): sixel \(found.listsSixel ? "yes" : "no"), kitty \(found.kittyGraphics ? "yes" : "no")\(found.cellPixels.map { ", cells \($0) pixels" } ?? "")")
        }
        if let size = context.terminalSize() {
            let minimum = Layout.minimumSize
            if size.rows < minimum.rows || size.columns < minimum.columns {
                report.problem(
                    "size \(size.columns)x\(size.rows) is below tabshell's minimum \(minimum.columns)x\(minimum.rows)",
                    fix: "make the window larger (80x24 shows everything)")
            } else {
                report.ok("size \(size.columns)x\(size.rows)")
            }
        } else {
            report.note("size: unknown, no terminal on standard input, output or error")
        }
        let locale = context.localeName
        if context.localeIsUTF8 {
            report.ok("locale \(locale) (UTF-8)")
        } else {
            report.problem(
                "locale \(locale) is not UTF-8 (from \(context.localeVariable ?? "no LC_ALL, LC_CTYPE or LANG")): tabshell draws ASCII and shows non-ASCII text as ?",
                fix: "export LANG=C.UTF-8 (or another UTF-8 locale listed by locale -a)")
        }
    }

    // MARK: - A PostgreSQL store

    /// Reachable, schema version, photos readable (the newest 100, or all with --full), LISTEN.
    private func checkServer(_ text: String, _ context: CommandContext, into report: inout DoctorReport) {
        report.section("Database (PostgreSQL)")
        let location: PostgresLocation
        do {
            location = try PostgresLocation(url: text, environment: context.environment)
        } catch {
            report.problem(error.message, fix: "write the URL as postgres://user@host[:port]/dbname[?sslmode=…]")
            return
        }
        for warning in location.warnings { report.note(warning) }
        let found = PostgresExamination.examine(location, allPhotos: full)
        if let problem = found.openError {
            let fix =
                problem.contains("password")
                ? "give the password in PGPASSWORD or ~/.pgpass (mode 0600), not on the command line"
                : "check that the server runs and accepts connections from this host (pg_isready -h HOST -p PORT)"
            report.problem(problem, fix: fix)
            return
        }
        report.ok("reachable: \(location.address), PostgreSQL \(found.serverVersion ?? "?")")
        switch found.compatibility {
        case let .newer(version):
            report.problem("made by a newer tabshell (schema \(version))", fix: "upgrade tabshell on this host")
            return
        case let .foreign(table):
            report.problem("the database holds another program's tables (\(table))", fix: "use a database of its own for tabshell")
            return
        case .compatible:
            break
        }
        if found.applied.isEmpty {
            report.note("schema: none yet; tabshell creates it on first start")
            return
        }
        if found.pending.isEmpty {
            report.ok("schema \(found.applied.last ?? "?") (up to date)")
        } else {
            report.note("schema \(found.applied.last ?? "?"); the next start applies \(found.pending.joined(separator: ", "))")
            return
        }
        report.ok(
            "holds \(Count.noun(found.records, "record")), \(Count.noun(found.requests, "request")), \(Count.noun(found.photoContents, "distinct photo"))")
        if found.photosDamaged.isEmpty {
            report.ok("photos readable: \(found.photosChecked) checked against their SHA-256\(full ? "" : " (the newest; --full checks all)")")
        } else {
            report.problem(
                "\(found.photosDamaged.count) of \(Count.noun(found.photosChecked, "photo")) do not match their SHA-256 (first: \(found.photosDamaged[0]))",
                fix: "restore photo_content from a backup of the server")
        }
        if found.canListen {
            report.ok("LISTEN works: other hosts' commits appear live")
        }
    }

    // MARK: - Files

    private func checkFiles(_ examination: DatabaseExamination, into report: inout DoctorReport) {
        report.section("Data folder")
        let directory = URL(fileURLWithPath: examination.databasePath).deletingLastPathComponent().path
        guard let folder = examination.entries.first(where: { $0.path == directory }) else {
            report.note("\(directory) does not exist yet; tabshell creates it (0700) on first start")
            return
        }
        for entry in examination.entries {
            let expected: UInt32 = entry.isDirectory ? 0o700 : 0o600
            let mode = String(entry.mode, radix: 8)
            let label = entry.path == directory ? "folder \(entry.path)" : entry.path
            if !entry.ownedByUser {
                report.problem("\(label) belongs to another user", fix: "chown -R \"$(id -un)\" \(shellQuoted(directory))")
            } else if entry.mode & 0o077 != 0 || entry.mode & 0o600 != 0o600 {
                report.problem(
                    "\(label) has mode \(mode), expected \(String(expected, radix: 8))",
                    fix: "chmod \(String(expected, radix: 8)) \(shellQuoted(entry.path))")
            } else if entry.path == directory || entry.path == examination.databasePath {
                report.ok("\(label) (\(mode))")
            }
        }
        _ = folder
        if let free = examination.freeBytes {
            if free < Self.minimumFreeBytes {
                report.problem(
                    "only \(byteCount(free)) free on the data folder's disk",
                    fix: "free some space: photos and the database need room to commit")
            } else {
                report.ok("free disk: \(byteCount(free))")
            }
        }
    }

    // MARK: - Database

    /// What to do when the database cannot be read, by what the sentence says went wrong.
    static func fix(forOpenError error: String, path: String) -> String {
        if error.contains("permission denied") {
            return "chmod 600 \(shellQuoted(path)) and chmod 700 its folder, as the user who runs tabshell"
        }
        if error.contains("locked") {
            return "wait for the other program to finish, or quit it, then run doctor again"
        }
        if error.contains("newer tabshell") {
            return "upgrade tabshell"
        }
        return "stop every tabshell and keep a copy (cp \(shellQuoted(path)) \(shellQuoted(path + ".broken")));"
            + " then salvage what SQLite can read: sqlite3 \(shellQuoted(path + ".broken")) .recover | sqlite3 recovered.sqlite,"
            + " and start tabshell --db recovered.sqlite; or restore a backup"
    }

    private func checkDatabase(_ examination: DatabaseExamination, into report: inout DoctorReport) {
        report.section("Database")
        let path = examination.databasePath
        guard examination.databaseExists else {
            report.note("\(path) does not exist yet; tabshell creates it on first start")
            return
        }
        if let error = examination.openError {
            report.problem(error, fix: Self.fix(forOpenError: error, path: path))
            return
        }
        let check = examination.fullIntegrityCheck ? "integrity_check" : "quick_check"
        if examination.integrity == ["ok"] {
            report.ok("integrity (\(check)): ok")
        } else {
            let first = examination.integrity.prefix(3).joined(separator: "; ")
            report.problem(
                "integrity (\(check)) failed: \(first)",
                fix: "stop every tabshell, copy the file, then recover it: sqlite3 \(shellQuoted(path)) .recover | sqlite3 recovered.sqlite")
        }
        switch examination.schema {
        case .empty:
            report.note("schema: empty; tabshell sets it up on first start")
        case let .current(version):
            report.ok("schema \(version) (current)")
        case let .behind(version, current):
            report.note("schema \(version ?? "none") is older than \(current); the next start of tabshell migrates it")
        case let .newer(version):
            report.problem("schema \(version) was made by a newer tabshell", fix: "upgrade tabshell")
        case .foreign:
            report.problem("this is not a tabshell database", fix: "point --db at a tabshell database, or at a new file")
        }
        report.ok(
            "\(Count.noun(examination.requestCount, "request")), \(Count.noun(examination.recordCount, "record")), \(Count.noun(examination.photoCount, "photo"))")
        if examination.missingPhotoFiles > 0 {
            report.problem(
                "\(examination.missingPhotoFiles) photo file\(plural(examination.missingPhotoFiles)) missing from the media folder",
                fix: "restore them from a backup, or delete the records that name them in History")
        }
        if examination.mediaFilesOpenToOthers > 0 {
            let media = URL(fileURLWithPath: examination.quarantinePath).deletingLastPathComponent().appendingPathComponent("media").path
            report.problem(
                "\(examination.mediaFilesOpenToOthers) photo file\(plural(examination.mediaFilesOpenToOthers)) in the media folder can be read by other users",
                fix: "chmod 600 \(shellQuoted(media))/*")
        }
        if examination.orphanFiles > 0 {
            report.note("\(examination.orphanFiles) media file\(plural(examination.orphanFiles)) no record names; the next start moves them to the quarantine (after an hour)")
        }
        if examination.stagingFolders > 0 {
            report.note("\(examination.stagingFolders) capture\(plural(examination.stagingFolders)) in progress or unfinished; the next start offers unfinished ones back")
        }
        if examination.quarantinedFiles > 0 {
            report.note(
                "\(examination.quarantinedFiles) file\(plural(examination.quarantinedFiles)) in the quarantine \(examination.quarantinePath); look, then delete it when you no longer need them"
            )
        } else {
            report.ok("quarantine: empty")
        }
    }
}

/// The lines of `tabshell doctor`'s report.
struct DoctorReport {
    enum Line {
        case section(String)
        case ok(String)
        case note(String)
        case problem(String, fix: String)
    }

    private(set) var lines: [Line] = []
    var problemCount: Int {
        lines.filter { if case .problem = $0 { true } else { false } }.count
    }

    mutating func section(_ title: String) { lines.append(.section(title)) }
    mutating func ok(_ text: String) { lines.append(.ok(text)) }
    mutating func note(_ text: String) { lines.append(.note(text)) }
    mutating func problem(_ text: String, fix: String) { lines.append(.problem(text, fix: fix)) }

    /// The report as text. With a `width` (the terminal's columns, when the report goes to
    /// one), each item is wrapped at spaces to fit it, its later lines under its first word, and
    /// a word longer than a line (a path) is broken at the edge, so no line is wider than the
    /// terminal; without one (a pipe), each item stays on one line.
    func render(unicode: Bool, width: Int? = nil) -> String {
        let sanitizer = Sanitizer(unicode: unicode)
        /// `lead` then `text`, wrapped under the text's first column; on a terminal too narrow
        /// for that, wrapped from the left edge.
        func item(_ lead: String, _ text: String) -> String {
            let text = sanitizer.line(text)
            guard let width, width > 0 else { return lead + text + "\n" }
            let room = width - lead.count
            guard room >= Self.leastRoomBesideLead else {
                return Self.wordWrap(lead.trimmingCharacters(in: .whitespaces) + " " + text, width: width).map { $0 + "\n" }.joined()
            }
            let indent = String(repeating: " ", count: lead.count)
            return Self.wordWrap(text, width: room).enumerated().map { index, line in (index == 0 ? lead : indent) + line + "\n" }.joined()
        }
        var out = ""
        for line in lines {
            switch line {
            case let .section(title): out += (out.isEmpty ? "" : "\n") + title + "\n"
            case let .ok(text): out += item("  ok       ", text)
            case let .note(text): out += item("  note     ", text)
            case let .problem(text, fix):
                out += item("  PROBLEM  ", text)
                out += item("           fix: ", fix)
            }
        }
        let count = problemCount
        out += "\n" + (count == 0 ? "No problems found.\n" : "\(count) problem\(plural(count)) found.\n")
        return out
    }
}

extension DoctorReport {
    /// The least room for an item's text beside its lead (`  PROBLEM  `, `fix: `); narrower, the
    /// item wraps from the left edge.
    static let leastRoomBesideLead = 10

    /// `text` in lines of at most `width` cells, broken at spaces; a word longer than a line (a
    /// path) is broken into pieces of `width` cells, so the terminal never has to fold a line.
    static func wordWrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [text] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ").flatMap({ pieces(of: String($0), width: width) }) {
            if current.isEmpty {
                current = String(word)
            } else if TextWidth.of(current) + 1 + TextWidth.of(String(word)) <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = String(word)
            }
        }
        return lines + [current]
    }

    /// `word` cut into pieces of at most `width` cells (itself when it fits).
    static func pieces(of word: String, width: Int) -> [String] {
        guard TextWidth.of(word) > width else { return [word] }
        var pieces: [String] = []
        var current = ""
        for character in word {
            let next = current + String(character)
            if !current.isEmpty, TextWidth.of(next) > width {
                pieces.append(current)
                current = String(character)
            } else {
                current = next
            }
        }
        return pieces + [current]
    }
}

/// Finds and reads compiled terminfo entries, without curses (doctor must work where curses
/// would fail, and must not touch the terminal).
enum Terminfo {
    /// The entry file for `term`, searched where ncurses searches.
    static func find(_ term: String, environment: [String: String]) -> String? {
        guard !term.contains("/"), let first = term.unicodeScalars.first else { return nil }
        var directories: [String] = []
        if let dir = environment["TERMINFO"], !dir.isEmpty { directories.append(dir) }
        if let home = environment["HOME"], !home.isEmpty { directories.append(home + "/.terminfo") }
        for dir in (environment["TERMINFO_DIRS"] ?? "").split(separator: ":") { directories.append(String(dir)) }
        directories += ["/etc/terminfo", "/lib/terminfo", "/usr/share/terminfo", "/usr/lib/terminfo"]
        let letters = [String(first), String(first.value, radix: 16)]
        for directory in directories {
            for letter in letters {
                let path = directory + "/" + letter + "/" + term
                if FileManager.default.isReadableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    /// The `colors` number of a compiled entry (legacy or 32-bit format); nil when absent or unreadable.
    static func maxColors(at path: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 12 else { return nil }
        let bytes = [UInt8](data)
        func short(_ offset: Int) -> Int { Int(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)) }
        let magic = short(0)
        guard magic == 0o432 || magic == 0o1036 else { return nil }
        let numberSize = magic == 0o1036 ? 4 : 2
        let namesSize = short(2), boolCount = short(4), numberCount = short(6)
        let colorsIndex = 13
        guard namesSize >= 0, boolCount >= 0, numberCount > colorsIndex else { return nil }
        var offset = 12 + namesSize + boolCount
        if offset % 2 == 1 { offset += 1 }
        offset += colorsIndex * numberSize
        guard offset + numberSize <= bytes.count else { return nil }
        let value: Int
        if numberSize == 2 {
            value = short(offset)
        } else {
            value = Int(
                Int32(
                    bitPattern: UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8
                        | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24))
        }
        return value < 0 ? nil : value
    }
}

func plural(_ count: Int) -> String { count == 1 ? "" : "s" }

/// A path as a shell word: quoted only when it needs to be.
func shellQuoted(_ path: String) -> String {
    let safe = path.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "/._-+,:@%".unicodeScalars.contains($0) }
    return safe ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// "1.5 GiB", "320 MiB", "12 KiB", "512 B".
func byteCount(_ bytes: Int64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1024, unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    return unit == 0 ? "\(bytes) B" : String(format: value < 10 ? "%.1f" : "%.0f", value) + " " + units[unit]
}
