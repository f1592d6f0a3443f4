import Domain
import Foundation
import TestSupport
import Testing

/// On the real binary and a real PostgreSQL server whose processes are stopped
/// (SIGSTOP, `pg-test-server freeze`): nothing answers and no connection closes. The app's
/// storage calls wait off its loop, so the tabs switch, Done says "Saving…" at once, and once the
/// answer timeout (10 s) is over the capture says why in one sentence and keeps what it holds;
/// with the server thawed, Done again saves it. (With the store on the loop, the first key after
/// the freeze held the screen for the 10 s answer timeout.)
@Suite(.serialized, .tags(.e2e, .postgres)) struct StoreOffTheLoopEndToEndTests {
    @Test func doneIsAnsweredAtOnceWhileTheServerIsStopped() throws {
        let server = try PrivatePostgres(named: "pg-offloop")
        // Kept to the end of the test: stopped when it lets go.
        defer { withExtendedLifetime(server) {} }
        let app = try TabShellEndToEndTests.launch(environment: ["TABSHELL_DATABASE_URL": server.url])
        try app.waitFor(text: "[ Inbox")
        try server.freeze()

        // The tabs switch while the server is stopped (History's read waits off the loop).
        try app.press("3")
        try app.waitFor(text: "[ History", timeout: 5)
        try app.press("1")
        try app.waitFor(text: "[ Inbox", timeout: 5)

        try app.press("2")
        try app.press("b")
        try app.waitFor(text: "Capture · Barcode", timeout: 5)
        try app.type("96385074")
        try app.press("Enter")
        try app.waitFor(text: "EAN-8", timeout: 5)
        let done = Date()
        try app.press("C-d")
        // Well inside the 10 s answer timeout a store on the loop would wait for.
        try app.waitFor(text: "Saving…", timeout: 5)
        let answered = Date().timeIntervalSince(done)
        print(String(format: "Done with PostgreSQL stopped: \"Saving…\" on screen %.0f ms after Ctrl-D", answered * 1000))

        // The answer timeout passes: the capture says why and keeps the code.
        let failed = try app.waitFor("the commit's failure on the capture", timeout: 40) { screen in
            screen.contains("Capture · Barcode") && !screen.contains("Saving…") && screen.contains("Cannot reach PostgreSQL")
        }
        #expect(failed.contains("96385074"), "the capture keeps its code:\n\(failed)")
        print(String(format: "Done with PostgreSQL stopped: the failure shown %.1f s after Ctrl-D", Date().timeIntervalSince(done)))

        // The server back: Done again saves the capture, and History shows it.
        try server.thaw()
        // The capture's own notice stays until Done is pressed again; Done fails at once while
        // the app still counts the server as gone (until its listener is back, within seconds).
        var saved = false
        for _ in 0..<15 where !saved {
            try app.press("C-d")
            saved = (try? app.waitFor(text: "Saved", timeout: 2)) != nil
        }
        #expect(saved, "Done saves once the server is back")
        try app.press("3")
        try app.waitFor(text: "96385074", timeout: 10)
        try app.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(app)
    }

    /// A server that has stopped answering when the app starts: the shell is drawn at once with
    /// "Connecting to …" in its heading, the keys work, the failure is said when the connection
    /// times out, and once the server answers again the Inbox shows what it holds.
    @Test func theShellIsDrawnAtOnceWhenTheServerIsStoppedAtStart() throws {
        let server = try PrivatePostgres(named: "pg-offloop-start")
        // Kept to the end of the test: stopped when it lets go.
        defer { withExtendedLifetime(server) {} }
        let url = server.url
        let added = try TmuxSession.spawnAndWait(
            [
                "/bin/sh", "-c",
                "XDG_DATA_HOME=\(TmuxSession.quote(server.folder.path)) \(TmuxSession.quote(TmuxSession.binary.path)) inbox add --db \(TmuxSession.quote(url)) --title 'Count the pallets' >/dev/null 2>&1",
            ],
            stdout: server.folder.appendingPathComponent("add.out").path)
        #expect(added == 0)
        try server.freeze()

        let launched = Date()
        let app = try TabShellEndToEndTests.launch(environment: ["TABSHELL_DATABASE_URL": url])
        // Well inside the 10 s a connection waits for its answer.
        let first = try app.waitFor("the shell, connecting", timeout: 5) { $0.contains("[ Inbox") && $0.contains("Connecting to") }
        print(String(format: "Start with PostgreSQL stopped: the shell on screen %.0f ms after launch", Date().timeIntervalSince(launched) * 1000))
        #expect(!first.contains("Count the pallets"))
        try app.press("3")
        try app.waitFor(text: "[ History", timeout: 5)
        try app.press("1")
        try app.waitFor(text: "[ Inbox", timeout: 5)
        // The connection's answer timeout passes: said, and tried again.
        try app.waitFor(text: "Cannot reach PostgreSQL", timeout: 40)

        try server.thaw()
        let opened = try app.waitFor(text: "Count the pallets", timeout: 40)
        let heading = opened.split(separator: "\n", omittingEmptySubsequences: false).prefix(2).joined(separator: "\n")
        #expect(!heading.contains("Connecting to") && !heading.contains("Cannot reach"), "\(opened)")
        try app.press("q")
        try TabShellEndToEndTests.expectTerminalRestored(app)
    }
}
