import Domain
import Foundation
import Logging
import PostgresStorage
import SQLiteStorage
import Storage
import TabShell
import TerminalScreen

/// `tabshell doctor`'s checks of the terminal, the data folder and the database, each adding
/// to a report what it found and how to fix each problem. Read-only.
struct Doctor {
    /// `--full`: SQLite's integrity_check instead of quick_check; every photo's hash on PostgreSQL.
    var full: Bool

    /// Free space below this is a problem: a capture's photos and the WAL need room.
    public static let minimumFreeBytes: Int64 = 100 << 20

    // MARK: - Terminal

    public func checkTerminal(_ context: CommandContext, into report: inout DoctorReport) {
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
        let noColor = !(env["NO_COLOR"] ?? "").isEmpty
        if noColor {
            report.note("colours: off because NO_COLOR is set; tabshell draws in monochrome")
        } else if let colors {
            if colors >= 8 {
                report.ok("colours: \(colors)")
            } else {
                report.note("colours: none; tabshell draws in monochrome (selection in reverse video)")
            }
        }
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
    public func checkServer(_ text: String, _ context: CommandContext, into report: inout DoctorReport) {
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

    public func checkFiles(_ examination: DatabaseExamination, into report: inout DoctorReport) {
        report.section("Data folder")
        let directory = URL(fileURLWithPath: examination.databasePath).deletingLastPathComponent().path
        guard examination.entries.contains(where: { $0.path == directory }) else {
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
    public static func fix(forOpenError error: String, path: String) -> String {
        if error.contains("permission denied") {
            return "chmod 600 \(shellQuoted(path)) and chmod 700 its folder, as the user who runs tabshell"
        }
        if error.contains("locked") {
            return "wait for the other program to finish, or quit it, then run doctor again"
        }
        if error.contains("newer tabshell") {
            return "upgrade tabshell"
        }
        if error.contains("not a regular file") {
            return "give --db the path of a database file (tabshell makes one where none is)"
        }
        return "stop every tabshell and keep a copy (cp \(shellQuoted(path)) \(shellQuoted(path + ".broken")));"
            + " then salvage what SQLite can read: sqlite3 \(shellQuoted(path + ".broken")) .recover | sqlite3 recovered.sqlite,"
            + " and start tabshell --db recovered.sqlite; or restore a backup"
    }

    public func checkDatabase(_ examination: DatabaseExamination, into report: inout DoctorReport) {
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
