import Domain
import Foundation
import Scanning
import TabShell
import TestSupport
import Testing

@testable import SQLiteStorage
@testable import Storage

/// `tabshell serve` end to end: the built binary as the server on loopback with a
/// random port, real keys from ssh-keygen, the real OpenSSH client — `ssh -tt` inside tmux, so
/// the screen can be read — and the sessions' data checked on disk afterwards.
@Suite(.serialized, .tags(.e2e, .postgres))
struct ServeEndToEndTests {
    /// A `tabshell serve` in a private folder: its own host key, keys for each person (the
    /// key's comment is the name), its database; SIGTERMed and removed when released.
    final class Server {
        let directory: URL
        let database: URL
        let log: URL
        let pid: pid_t
        let port: Int
        private var stopped = false

        /// `store`: a PostgreSQL URL the server is given in TABSHELL_DATABASE_URL instead of --db.
        /// `extra`: more of serve's options (`--idle-timeout 8s`). `binary`: the path the server is
        /// started by (default the built binary); `environment`: more `NAME=value` for it.
        init(
            people: [String] = ["ana", "ben"], demo: Bool = false, resumeWindow: String = "10m", store: String? = nil,
            extra: [String] = [], binary: String? = nil, environment: [String] = []
        ) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-serve-\(UUID().uuidString.prefix(8))")
            database = directory.appendingPathComponent("data/tabshell.sqlite")
            log = directory.appendingPathComponent("serve.out")
            let keys = directory.appendingPathComponent("keys")
            try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("tmp"), withIntermediateDirectories: true)
            var authorized = ""
            for person in people {
                let key = keys.appendingPathComponent(person).path
                let made = try Stress.shell("ssh-keygen -q -t ed25519 -N '' -C \(TmuxSession.quote(person)) -f \(TmuxSession.quote(key))")
                guard made.status == 0 else { throw HarnessError("ssh-keygen failed: \(made.output)") }
                authorized += try String(contentsOfFile: key + ".pub", encoding: .utf8)
            }
            let authorizedKeys = directory.appendingPathComponent("authorized_keys")
            try authorized.write(to: authorizedKeys, atomically: true, encoding: .utf8)

            // The server's temporary folder (demo data sets) and data folder are its own.
            var argv =
                [
                    "/usr/bin/env", "TMPDIR=\(directory.path)/tmp", "XDG_DATA_HOME=\(directory.path)/xdg",
                ] + environment + [
                    binary ?? TmuxSession.binary.path, "serve", "--listen", "127.0.0.1:0", "--host-key", directory.path + "/host_key",
                    "--resume-window", resumeWindow,
                ]
            if let store { argv.insert("TABSHELL_DATABASE_URL=\(store)", at: 1) }
            argv += demo ? ["--demo"] : (store == nil ? ["--db", database.path] : []) + ["--authorized-keys", authorizedKeys.path]
            argv += extra
            let spawned = try Stress.spawn(argv, log: log.path)
            var found: Int?
            let log = self.log
            _ = Stress.poll(timeout: 15) {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                if let range = text.range(of: #"Listening on 127\.0\.0\.1:\d+"#, options: .regularExpression) {
                    found = Int(text[range].split(separator: ":").last ?? "")
                }
                return found != nil || !Stress.isAlive(spawned)
            }
            guard let found else {
                Stress.stop(spawned)
                throw HarnessError("tabshell serve did not start: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            }
            pid = spawned
            port = found
        }

        deinit {
            if !stopped { Stress.stop(pid) }
            try? FileManager.default.removeItem(at: directory)
        }

        /// SIGTERM; returns the seconds until the server process has exited (reaped).
        func terminate() -> Double {
            let start = Date()
            kill(pid, SIGTERM)
            var status: Int32 = 0
            while waitpid(pid, &status, WNOHANG) == 0 {
                if Date().timeIntervalSince(start) > 10 {
                    kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    break
                }
                usleep(2_000)
            }
            stopped = true
            return Date().timeIntervalSince(start)
        }

        /// The ssh command line of `person` (no key in demo mode) running `remote`, with or
        /// without a terminal, optionally with another login name than the Unix user's.
        func ssh(_ person: String?, _ remote: String = "", tty: Bool = true, login: String? = nil) -> String {
            var line =
                "ssh \(tty ? "-tt" : "-T") -F /dev/null -p \(port) -o BatchMode=yes -o StrictHostKeyChecking=no "
                + "-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o SetEnv=LC_ALL=C.UTF-8 "
            if let login { line += "-o User=\(TmuxSession.quote(login)) " }
            if let person {
                line += "-i \(TmuxSession.quote(directory.appendingPathComponent("keys/\(person)").path)) -o IdentitiesOnly=yes "
            } else {
                line += "-o PubkeyAuthentication=no "
            }
            return line + "127.0.0.1" + (remote.isEmpty ? "" : " " + remote)
        }

        /// `person`'s app over `ssh -tt` in tmux; `[app exit N]` shows when ssh ends.
        func session(_ person: String?) async throws -> TmuxSession {
            let session = try connect(person)
            do {
                try await session.waitUntil("the tab bar over ssh", timeout: 30) { $0.contains("[ Inbox") && $0.contains("Settings") }
            } catch {
                throw HarnessError("\(error)\nserver's output:\n\(serverLog)\nits log:\n\(appLog.suffix(3000))")
            }
            return session
        }

        /// The end of tabshell.log beside the database (the server's and its sessions' lines).
        var appLog: String {
            (try? String(contentsOf: database.deletingLastPathComponent().appendingPathComponent("tabshell.log"), encoding: .utf8)) ?? ""
        }

        /// `person`'s ssh in tmux, without waiting for anything.
        func connect(_ person: String?) throws -> TmuxSession {
            try TmuxSession("\(TmuxSession.survivesKeyboardSignals) \(ssh(person)) </dev/tty & \(TmuxSession.waitForApp) echo \"[app exit $code]\"")
        }

        /// The server-side app of `person`'s session (its command line names their folder).
        func appPIDs(of person: String) -> [Int32] {
            Stress.pids(commandLineContaining: "/people/\(person) ").filter { pid in
                Stress.descends(pid, from: self.pid) && ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").hasPrefix("tabshell")
            }
        }

        /// A small real PNG in the server's folder.
        func writePNG(_ name: String) throws -> URL {
            let url = directory.appendingPathComponent(name)
            try Data(DemoPNG.encode(width: 10, height: 10) { x, y in (UInt8(x * 20), UInt8(y * 20), 90) }).write(to: url)
            return url
        }

        var serverLog: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    }

    /// Types a note capture and Done.
    static func captureNote(_ text: String, in s: TmuxSession) async throws {
        try s.press("2")
        try await s.waitUntil("the picker") { $0.contains("What do you want to capture?") }
        try s.press("n")
        try await s.waitUntil("the note") { $0.contains("Capture · Note") }
        try s.type(text)
        try await s.waitUntil("the note typed") { $0.contains(text) }
        try s.press("C-d")
        try await s.waitUntil("back on the tabs") { $0.contains("[ Inbox") }
    }

    @Test func aCaptureByEachOfTwoPeopleThenHistoryShowsWho() async throws {
        let server = try Server()
        let ana = try await server.session("ana")
        try await Self.captureNote("Pallet 7 counted", in: ana)
        // ana again while her first session runs: a second session starts fresh and says so.
        let again = try await server.session("ana")
        try await again.waitUntil("the second session's sentence") { $0.contains("another session too") }
        try again.press("q")
        #expect(try await Self.exitCode(again) == 0)
        let ben = try await server.session("ben")
        try await Self.captureNote("Shelf label checked", in: ben)
        try ben.press("3")
        let history = try await ben.waitUntil("History with who") { $0.contains("Shelf label checked") && $0.contains("Pallet 7 counted") }
        #expect(history.contains(" By "), "a By column once two people are in the data:\n\(history)")
        let rows = history.split(separator: "\n")
        #expect(rows.contains { $0.contains("Shelf label checked") && $0.contains(" ben ") }, "\(history)")
        #expect(rows.contains { $0.contains("Pallet 7 counted") && $0.contains(" ana ") }, "\(history)")
        try ben.press("Down", "Enter")
        try await ben.waitUntil("the detail names ana") { $0.contains("Record #1") && $0.contains("By        ana") }
        // ana's screen follows the other session's commit: the column appears there too.
        try ana.press("3")
        try await ana.waitUntil("ana's History") { $0.contains("Shelf label checked") && $0.contains(" By ") }
        for s in [ana, ben] {
            try s.press("q")
            #expect(try await Self.exitCode(s) == 0, "the exit status comes back through ssh")
        }
        let page = try AppDatabase.open(at: server.database).historyPage(.init(start: 0, count: 5))
        #expect(page.rows.map(\.capturedBy) == ["ben", "ana"])
    }

    @Test func allowedCommandsRunAsThePersonAndEverythingElseIsRefused() async throws {
        let server = try Server()
        let added = try Stress.shell(server.ssh("ben", "inbox add --title \(TmuxSession.quote("'Count the boxes'")) --kind note", tty: false) + " </dev/null")
        #expect(added.status == 0, "\(added.output)")
        #expect(added.output == "1\n", "the same output as locally: the new id")
        let imported = try Stress.shell(
            "echo '[{\"title\":\"Scan aisle 4\"}]' | " + server.ssh("ana", "inbox import -", tty: false))
        #expect(imported.status == 0 && imported.output == "Imported 1 request.\n", "\(imported.output)")
        let listed = try Stress.shell(server.ssh("ana", "inbox list --json", tty: false) + " </dev/null")
        #expect(listed.output.contains(#""title":"Count the boxes","body":"","kind":"note","status":"pending""#), "\(listed.output)")
        #expect(listed.output.contains(#""createdBy":"ben""#) && listed.output.contains(#""createdBy":"ana""#))

        // history list: the same text and status as the binary run locally on the same data.
        let remote = try Stress.shell(server.ssh("ana", "history list", tty: false) + " </dev/null")
        let local = try Stress.shell("\(TmuxSession.quote(TmuxSession.binary.path)) history list --db \(TmuxSession.quote(server.database.path)) </dev/null")
        #expect(remote.status == 0 && remote.output == local.output, "remote:\n\(remote.output)\nlocal:\n\(local.output)")
        // A usage error exits as locally (argument-parser's 64).
        // (`--limit -3` is refused by the server itself: a value that starts with - is written --limit=-3.)
        let wrong = try Stress.shell(server.ssh("ana", "history list --limit three", tty: false) + " </dev/null")
        let wrongLocally = try Stress.shell("\(TmuxSession.quote(TmuxSession.binary.path)) history list --limit three --db \(TmuxSession.quote(server.database.path)) </dev/null")
        #expect(wrong.status == wrongLocally.status && wrong.status == 64, "\(wrong.output)")

        for (command, says) in [
            ("ls /", "is not an allowed command"), ("history list --db /etc/passwd", "--db is not an option"),
            ("history export --format csv --output /tmp/x", "--output is not an option"), ("sh", "is not an allowed command"),
        ] {
            let refused = try Stress.shell(server.ssh("ana", command, tty: false) + " </dev/null")
            #expect(refused.status == 1, "\(command): \(refused.output)")
            #expect(refused.output.hasPrefix("tabshell: ") && refused.output.contains(says), "\(command): \(refused.output)")
            #expect(refused.output.split(separator: "\n").count == 1, "one line: \(refused.output)")
        }
    }

    /// The team's store on a PostgreSQL server: the server hands it to every session, so what one
    /// person adds over SSH another sees, in the app and in commands, as the binary does locally.
    @Test func aServerOnPostgreSQLGivesEverySessionTheTeamsStore() async throws {
        let database = try PrivatePostgres(named: "serve-pg")
        defer { withExtendedLifetime(database) {} }
        let folder = database.folder
        let url = database.url
        let server = try Server(store: url)
        let added = try Stress.shell(server.ssh("ben", "inbox add --title \(TmuxSession.quote("'Count the boxes'")) --kind note", tty: false) + " </dev/null")
        #expect(added.status == 0 && added.output == "1\n", "\(added.output)")
        let listed = try Stress.shell(server.ssh("ana", "inbox list", tty: false) + " </dev/null")
        let local = try Stress.shell(
            "XDG_DATA_HOME=\(TmuxSession.quote(folder.path)) \(TmuxSession.quote(TmuxSession.binary.path)) inbox list --db \(TmuxSession.quote(url)) </dev/null")
        #expect(listed.status == 0 && listed.output == local.output && listed.output.contains("Count the boxes"), "\(listed.output)\n\(local.output)")

        let s = try await server.session("ana")
        try await s.waitUntil(text: "Count the boxes")
        try s.press("Enter")
        try await s.waitUntil(text: "Capture · Note")
        try s.type("Twelve boxes")
        try s.press("C-d")
        try await s.waitUntil(text: "Saved")
        let history = try Stress.shell(server.ssh("ben", "history list", tty: false) + " </dev/null")
        #expect(history.output.contains("Twelve boxes"), "\(history.output)")
        #expect(!((try? String(contentsOf: server.log, encoding: .utf8)) ?? "").contains(url), "the server's output never shows the URL with its password")
    }

    @Test func aDroppedConnectionComesBackWithinTheWindowWithItsPhotosStaged() async throws {
        let server = try Server()
        let photo = try server.writePNG("shelf.png")
        let uploaded = try Stress.shell(server.ssh("ana", "photos add shelf.png", tty: false) + " < \(TmuxSession.quote(photo.path))")
        #expect(uploaded.status == 0 && uploaded.output.contains("Kept shelf.png: PNG 10x10"), "\(uploaded.output)")

        let first = try await server.session("ana")
        try first.press("3")
        try await first.waitUntil("History") { $0.contains("[ History") }
        try first.press("2", "p")
        try await first.waitUntil("photos phase") { $0.contains("Capture · Photos") && $0.contains("your uploads") }
        try first.type("shelf.png")
        try first.press("Enter")
        try await first.waitUntil("the staged photo") { $0.contains("shelf.png") && $0.contains("10×10") }
        try first.type("sh")
        try await first.waitUntil("the half-typed name") { $0.contains("File [sh ") }
        let appBefore = try #require(server.appPIDs(of: "ana").first, "no server-side app for ana")
        kill(try TabShellEndToEndTests.appPID(first), SIGKILL)
        let gone = Stress.waitGone(appBefore, timeout: 10)
        #expect(gone.elapsed != nil, "the app of a dropped connection must end")

        let second = try server.connect("ana")
        let back = try await second.waitUntil("the same screen", timeout: 30) { $0.contains("Capture · Photos") && $0.contains("10×10") }
        #expect(back.contains("Welcome back"), "\(back)")
        #expect(back.contains("File [sh "), "the half-typed name is still in the field:\n\(back)")
        #expect(!back.contains("Resume the unfinished capture?"))
        try second.press("C-u", "C-d")
        try await second.waitUntil("back on History, where it was") { $0.contains("[ History") && $0.contains("Photos") }
        let db = try AppDatabase.open(at: server.database)
        let page = try db.historyPage(.init(start: 0, count: 5))
        #expect(page.rows.map(\.capturedBy) == ["ana"])
        #expect(try db.recordDetail(id: page.rows[0].id)?.photos.map(\.originalName) == ["shelf.png"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: server.database.path + ".files/staging").isEmpty)
        try second.press("q")
    }

    @Test func afterTheWindowTheDraftIsOfferedAsToday() async throws {
        let server = try Server(resumeWindow: "1s")
        let photo = try server.writePNG("label.png")
        _ = try Stress.shell(server.ssh("ana", "photos add label.png", tty: false) + " < \(TmuxSession.quote(photo.path))")
        let first = try await server.session("ana")
        try first.press("2", "p")
        try await first.waitUntil("photos phase") { $0.contains("Capture · Photos") }
        try first.type("label.png")
        try first.press("Enter")
        try await first.waitUntil("the staged photo") { $0.contains("10×10") }
        let app = try #require(server.appPIDs(of: "ana").first)
        kill(try TabShellEndToEndTests.appPID(first), SIGKILL)
        _ = Stress.waitGone(app, timeout: 10)
        try await Task.sleep(for: .milliseconds(1500))

        let second = try server.connect("ana")
        let offered = try await second.waitUntil("the draft offered", timeout: 30) { $0.contains("Resume the unfinished capture?") }
        #expect(!offered.contains("Welcome back"))
        try second.press("r")
        try await second.waitUntil("the resumed photo") { $0.contains("Capture · Photos") && $0.contains("10×10") }
        try second.press("C-d")
        try await second.waitUntil("saved") { $0.contains("[ Inbox") }
        #expect(try AppDatabase.open(at: server.database).historyCount() == 1)
        try second.press("q")
    }

    @Test func aPhotoUploadedIsTheOwnersAndNoPathLeadsOutOfTheFolder() async throws {
        let server = try Server()
        let photo = try server.writePNG("shelf.png")
        _ = try Stress.shell(server.ssh("ana", "photos add shelf.png", tty: false) + " < \(TmuxSession.quote(photo.path))")
        let list = try Stress.shell(server.ssh("ana", "photos list", tty: false) + " </dev/null")
        #expect(list.output.contains("shelf.png") && list.output.contains("10x10"), "\(list.output)")
        #expect(try Stress.shell(server.ssh("ben", "photos list", tty: false) + " </dev/null").output.hasPrefix("No uploads."))
        // A link out of ana's folder, planted there: not an upload.
        let secret = try server.writePNG("secret.png")
        let anasUploads = server.database.deletingLastPathComponent().appendingPathComponent("people/ana/uploads")
        #expect(symlink(secret.path, anasUploads.appendingPathComponent("link.png").path) == 0)

        let ben = try await server.session("ben")
        try ben.press("2", "p")
        try await ben.waitUntil("ben's photos phase") { $0.contains("Capture · Photos") }
        try ben.press("Tab")
        try ben.type("shelf.png")
        try ben.press("Enter")
        try await ben.waitUntil("ben has no such upload") { $0.contains("You have no upload named") }
        for typed in ["../ana/uploads/shelf.png", "/etc/passwd", secret.path] {
            try ben.press("C-u")
            try ben.type(typed)
            try ben.press("Enter")
            try await ben.waitUntil("\(typed) refused") { $0.contains("is not a name") || $0.contains("no upload named") }
        }
        let bens = try ben.screen()
        #expect(bens.contains("Photos (0 of 3)"), "\(bens)")

        let ana = try await server.session("ana")
        try ana.press("2", "p")
        try await ana.waitUntil("ana's photos phase") { $0.contains("Capture · Photos") }
        for typed in ["/etc/", "../", "../../"] {
            try ana.press("C-u")
            try ana.type(typed)
            try ana.press("Tab")
            // Keys are read in order: a letter typed after Tab, once shown right after what was
            // typed, means Tab has been handled (and completed nothing).
            try ana.type("x")
            let screen = try await ana.waitUntil("\(typed) and the letter after Tab") {
                $0.contains("File [\(typed)x") || $0.contains("Matches:")
            }
            #expect(screen.contains("File [\(typed)x"), "\(typed) was completed:\n\(screen)")
            #expect(!screen.contains("Matches:"), "\(typed) listed something:\n\(screen)")
        }
        try ana.press("C-u")
        try ana.type("link.png")
        try ana.press("Enter")
        try await ana.waitUntil("the link refused") { $0.contains("no upload named") || $0.contains("not a file") }
        try ana.press("C-u", "Tab")
        try await ana.waitUntil("her upload completed") { $0.contains("File [shelf.png ") }
        #expect(!(try ana.screen()).contains("link.png"))
        try ana.press("Enter")
        try await ana.waitUntil("her photo staged") { $0.contains("10×10") && $0.contains("Photos (1 of 3)") }
        try ana.press("C-d")
        try await ana.waitUntil("saved") { $0.contains("[ Inbox") }
        let db = try AppDatabase.open(at: server.database)
        let id = try #require(try db.historyPage(.init(start: 0, count: 1)).rows.first?.id)
        #expect(try db.recordDetail(id: id)?.photos.map(\.pixelWidth) == [10], "the upload, not the link's target")
        let removed = try Stress.shell(server.ssh("ana", "photos remove shelf.png", tty: false) + " </dev/null")
        #expect(removed.status == 0, "\(removed.output)")
        #expect(FileManager.default.fileExists(atPath: secret.path))
    }

    @Test func demoVisitorsEachHaveTheirOwnDataAndNothingIsLeft() async throws {
        let server = try Server(people: [], demo: true)
        let one = try await server.session(nil)
        try await Self.captureNote("Visitor one was here", in: one)
        try one.press("3")
        try await one.waitUntil("one's History") { $0.contains("Visitor one was here") }
        let two = try await server.session(nil)
        try two.press("3")
        let history = try await two.waitUntil("two's History") { $0.contains("History") && $0.contains("8 records") }
        #expect(!history.contains("Visitor one was here"))
        // The demo's sample photos are the visitor's uploads.
        try two.press("2", "p")
        try await two.waitUntil("photos phase") { $0.contains("Capture · Photos") }
        try two.press("Tab")
        try await two.waitUntil("the sample photos") { $0.contains("coffee-beans-barcode.png") && $0.contains("coffee-beans-front.png") }
        // The data sets are in the server's own parent folder (tabshell-serve-demos-…, locked).
        let temporary = server.directory.appendingPathComponent("tmp").path
        func dataSets() -> [String] {
            let parents = ((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []).filter { $0.hasPrefix("tabshell-serve-demos-") }
            return parents.flatMap { parent in
                ((try? FileManager.default.contentsOfDirectory(atPath: temporary + "/" + parent)) ?? []).filter { $0.hasPrefix("tabshell-serve-demo-") }
            }
        }
        #expect(dataSets().count == 2, "one data set per connection")
        try one.press("q")
        try two.press("Escape")
        try await two.waitUntil("Close asks") { $0.contains("Discard this capture?") }
        try two.press("y")
        try await two.waitUntil("back on the tabs") { $0.contains("[ History") }
        try two.press("q")
        _ = try await Self.exitCode(one)
        _ = try await Self.exitCode(two)
        let cleaned = await Self.poll(timeout: 5) { dataSets().isEmpty }
        #expect(cleaned, "left behind: \(dataSets())")
        _ = server.terminate()
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? ["?"]).isEmpty, "the server's parent goes when it stops")
    }

    /// What a client chooses — its login name, its command, an option's value, an upload's
    /// name — reaches neither the log file nor its own terminal raw. OpenSSH sends C1
    /// and bidi characters in a login name (it refuses C0 there) and anything in a command.
    @Test func hostileBytesFromAClientReachNeitherTheLogNorTheirTerminalRaw() async throws {
        let server = try Server()
        let hostile = "\u{1B}]0;owned\u{07}\u{9B}2J\u{202E}"
        let login = "eve\u{9B}31m\u{202E}nimda"
        func unsafe(_ text: String) -> [String] {
            text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" && Sanitizer.isUnsafe($0) }.map { String(format: "U+%04X", $0.value) }
        }
        let photo = try server.writePNG("shelf.png")
        for (remote, says) in [
            ("bogus \(hostile)", "is not an allowed command"),
            ("history export --format \(TmuxSession.quote(hostile))", "is invalid for '--format <format>'"),
            ("history list --bogus\(hostile)", "is not an option the server accepts"),
            ("photos add \(TmuxSession.quote("~root"))", "cannot start with ~"),
            ("photos add file:shelf.png", "cannot start with file:"),
            ("photos add \(TmuxSession.quote("\u{202E}gnp.exe"))", "cannot hold control characters"),
        ] {
            let result = try Stress.shell(
                server.ssh("ana", TmuxSession.quote(remote), tty: false, login: login) + " < \(TmuxSession.quote(photo.path))")
            #expect(result.status != 0 && result.output.contains(says), "\(remote.debugDescription): \(result.output)")
            #expect(unsafe(result.output).isEmpty, "\(remote.debugDescription) said back raw: \(result.output.debugDescription)")
        }
        let uploads = server.database.deletingLastPathComponent().appendingPathComponent("people/ana/uploads").path
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: uploads)) ?? []).isEmpty, "nothing was kept")

        let log = server.appLog
        #expect(log.contains("login=eve?31m?nimda"), "\(log.suffix(2000))")
        #expect(log.contains("refused: launcher"), "\(log.suffix(2000))")
        #expect(unsafe(log).isEmpty, "the log holds \(unsafe(log)):\n\(log.suffix(3000))")
    }

    /// An RSA key in authorized_keys is said once at start, by the report (it was said again by
    /// the console's summary of the log). stderr is a terminal here, as for a person starting it.
    @Test func anRSAKeyLineIsReportedOnceAtStart() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-rsa-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = folder.appendingPathComponent("ana").path
        let made = try Stress.shell("ssh-keygen -q -t ed25519 -N '' -C ana -f \(TmuxSession.quote(key))")
        #expect(made.status == 0, "\(made.output)")
        let authorized = try String(contentsOfFile: key + ".pub", encoding: .utf8) + "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC dave\n"
        try authorized.write(to: folder.appendingPathComponent("authorized_keys"), atomically: true, encoding: .utf8)

        let s = try TmuxSession(
            "$TABSHELL serve --listen 127.0.0.1:0 --authorized-keys \(TmuxSession.quote(folder.path + "/authorized_keys")) "
                + "--db \(TmuxSession.quote(folder.path + "/data/tabshell.sqlite")) --host-key \(TmuxSession.quote(folder.path + "/host_key"))",
            columns: 220, rows: 30)
        let screen = try await s.waitUntil("the server started", timeout: 20) { $0.contains("Connect with: ssh") }
        try s.press("C-c")
        _ = try await s.waitUntil(text: "[exit ")
        #expect(screen.components(separatedBy: "RSA keys are not supported").count - 1 == 1, "\(screen)")
        #expect(screen.components(separatedBy: "Listening on").count - 1 == 1, "\(screen)")
        #expect(!screen.contains(" listening"), "the address is in the report already:\n\(screen)")
        let log = try String(contentsOfFile: folder.path + "/data/tabshell.log", encoding: .utf8)
        #expect(log.contains("line 2: RSA keys are not supported"), "the log file keeps it:\n\(log)")
    }

    /// A person's session is forked from the server's warmed template, not exec'd: the binary
    /// sits at the template's address (an exec would be placed anew: address space layout
    /// randomisation), the server is its parent, `ps` shows its own command line, and the
    /// template ends with the server.
    @Test func aSessionIsAForkOfTheServersWarmedTemplate() async throws {
        let server = try Server()
        let ana = try await server.session("ana")
        let template = try #require(
            Stress.pids(commandLineContaining: "(session template)").first { Stress.descends($0, from: server.pid) })
        let app = try #require(server.appPIDs(of: "ana").first)
        #expect(Self.parent(of: app) == server.pid)
        #expect(Self.parent(of: template) == server.pid)
        // Warmed (its argument parsing done once) and still one thread: forking it is safe.
        let threads = (try? String(contentsOfFile: "/proc/\(template)/status", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("Threads:") }
        #expect(threads?.split(separator: "\t").last == "1", "\(threads ?? "no status")")
        let base = try #require(Self.binaryBase(of: app))
        #expect(base == Self.binaryBase(of: template))
        if (try? String(contentsOfFile: "/proc/sys/kernel/randomize_va_space", encoding: .utf8))?.hasPrefix("2") == true {
            #expect(base != Self.binaryBase(of: server.pid), "the server itself was exec'd: its binary is elsewhere")
        }
        try ana.press("q")
        #expect(try await Self.exitCode(ana) == 0)
        _ = server.terminate()
        // Ended: gone, or a zombie (when this test runner is itself a subreaper, it inherits it).
        #expect(await Self.poll(timeout: 10) { Self.state(of: template).map { $0 == "Z" } ?? true }, "the template ends with its server")
    }

    /// `session-template = false` in serve.toml (or --no-session-template): sessions are exec'd.
    @Test func withTheTemplateOffASessionIsExecd() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString.prefix(8)).toml")
        try "session-template = false\n".write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        let server = try Server(extra: ["--config", config.path])
        let ana = try await server.session("ana")
        let app = try #require(server.appPIDs(of: "ana").first)
        #expect(Self.parent(of: app) == server.pid)
        #expect(!Stress.pids(commandLineContaining: "(session template)").contains { Stress.descends($0, from: server.pid) })
        try ana.press("q")
        #expect(try await Self.exitCode(ana) == 0)
    }

    static func state(of pid: pid_t) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first?.first
    }

    static func parent(of pid: pid_t) -> pid_t? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }

    /// Where the process's executable is mapped first (its /proc/PID/maps line for /proc/PID/exe).
    static func binaryBase(of pid: pid_t) -> String? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"),
            let maps = try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)
        else { return nil }
        let line = maps.split(separator: "\n").first { $0.hasSuffix(" " + exe) }
        return line.flatMap { $0.split(separator: "-").first.map(String.init) }
    }

    @Test func sigtermWithSessionsOpenEndsWithinTwoSeconds() async throws {
        let server = try Server()
        let ana = try await server.session("ana")
        let ben = try await server.session("ben")
        try ben.press("2", "n")
        try await ben.waitUntil("ben's note") { $0.contains("Capture · Note") }
        try ben.type("half a note")
        let seconds = server.terminate()
        print(String(format: "serve: SIGTERM with 2 sessions open, exited after %.2f s", seconds))
        #expect(seconds < 2.0)
        for s in [ana, ben] {
            #expect(try await Self.exitCode(s) == 129, "hung up (128 + SIGHUP)")
            // Written once the app has left its alternate screen, so it stays in view.
            #expect(try s.screen().contains("tabshell: the server is stopping."))
        }
        #expect(server.appPIDs(of: "ana").isEmpty && server.appPIDs(of: "ben").isEmpty, "no session outlives the server")
        // ben's capture was kept (a snapshot and its draft) for when the server is back.
        let bens = server.database.deletingLastPathComponent().appendingPathComponent("people/ben/session.json")
        #expect(FileManager.default.fileExists(atPath: bens.path))
    }
}

// MARK: - Waiting without holding a thread

extension ServeEndToEndTests {
    /// The status `[app exit N]` shows once ssh has ended.
    static func exitCode(_ session: TmuxSession) async throws -> Int? {
        let screen = try await session.waitUntil(text: "[app exit")
        guard let range = screen.range(of: #"\[app exit (\d+)\]"#, options: .regularExpression) else { return nil }
        return Int(screen[range].dropFirst(10).dropLast())
    }

    /// Polls `condition` every 20 ms up to `timeout` seconds, sleeping between polls.
    static func poll(timeout: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if condition() { return true }
            if Date() >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}

extension TmuxSession {
    /// ``waitFor(_:timeout:_:)`` that sleeps with `Task.sleep` between looks, so a waiting test
    /// leaves the test runner's few threads to the other tests (the SSH server's are async).
    @discardableResult
    func waitUntil(_ what: String, timeout: Double = 10, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var matched: String?
        while true {
            // Looked at once more after the deadline: on a loaded machine a sleep can outlast it.
            // A match counts once two captures agree: a capture can fall between a frame's writes.
            let last = try screen()
            if condition(last) {
                if last == matched { return last }
                matched = last
            } else {
                matched = nil
            }
            if Date() >= deadline {
                if let matched { return matched }
                throw HarnessError("timed out waiting for \(what); screen was:\n\(last)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @discardableResult
    func waitUntil(text: String, timeout: Double = 10) async throws -> String {
        try await waitUntil("\"\(text)\"", timeout: timeout) { $0.contains(text) }
    }
}
