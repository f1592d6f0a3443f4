import Foundation
import Glibc
import TestSupport
import Testing

/// A runtime trap or a fatal signal in the real binary: the crash guard puts the terminal back
/// (stty, main screen, cursor) with async-signal-safe calls, records the crash in the log and
/// dies of the signal; the Swift runtime's backtracer never draws its prompt over the screen.
@Suite(.serialized, .tags(.e2e))
struct CrashGuardEndToEndTests {
    enum Crash: String, CaseIterable, CustomTestStringConvertible {
        /// A Swift precondition failure (F12 with TABSHELL_TEST_CRASH=trap): SIGILL on x86_64, SIGTRAP on arm64.
        case trap
        /// A segmentation fault raised inside the process.
        case segv
        /// abort(3), as a C library would on a failed assertion.
        case abort
        /// SIGBUS sent from outside with kill(2).
        case killBUS
        /// SIGSEGV sent from outside with kill(2).
        case killSEGV

        var testDescription: String { rawValue }

        var signalNames: [String] {
            switch self {
            case .trap: ["SIGILL", "SIGTRAP"]
            case .segv, .killSEGV: ["SIGSEGV"]
            case .abort: ["SIGABRT"]
            case .killBUS: ["SIGBUS"]
            }
        }

        var exitCodes: [Int] {
            switch self {
            case .trap: [128 + Int(SIGILL), 128 + Int(SIGTRAP)]
            case .segv, .killSEGV: [128 + Int(SIGSEGV)]
            case .abort: [128 + Int(SIGABRT)]
            case .killBUS: [128 + Int(SIGBUS)]
            }
        }
    }

    @Test(arguments: Crash.allCases)
    func aCrashRestoresTheTerminalAndIsLogged(_ crash: Crash) throws {
        // Given the app on its Inbox, started with the test crash switch for F12
        let injected: String? =
            switch crash {
            case .trap, .segv, .abort: crash.rawValue
            case .killBUS, .killSEGV: nil
            }
        let environment = injected.map { ["TABSHELL_TEST_CRASH": $0] } ?? [:]
        let session = try TabShellEndToEndTests.launch(environment: environment)
        try session.waitFor(text: "[ Inbox")
        let pid = try TabShellEndToEndTests.appPID(session)

        // When it crashes
        let started = Date()
        switch crash {
        case .trap, .segv, .abort: try session.press("F12")
        case .killBUS: kill(pid, SIGBUS)
        case .killSEGV: kill(pid, SIGSEGV)
        }

        // Then the terminal is as it was, the user is told where the details are,
        let screen = try session.waitFor(text: "[app exit")
        let seconds = Date().timeIntervalSince(started)
        try TabShellEndToEndTests.expectTerminalRestored(session)
        let code = try TabShellEndToEndTests.exitCode(session)
        #expect(code.map(crash.exitCodes.contains) == true, "exit status \(String(describing: code))")
        #expect(crash.signalNames.contains { screen.contains("tabshell: crashed (\($0)); details in ") }, "no crash notice:\n\(screen)")
        // no backtrace or prompt from the Swift runtime was left on the screen,
        for banner in ["Backtrace", "Program crashed", "Press", "Fatal error"] {
            #expect(!screen.contains(banner), "\(banner) on screen:\n\(screen)")
        }
        // and the log has the crash line (and, for a trap, the runtime's message, which went to
        // the log because standard error points there while curses owns the screen).
        let log = try String(contentsOf: session.workDirectory.appendingPathComponent("data/tabshell/tabshell.log"), encoding: .utf8)
        #expect(crash.signalNames.contains { log.contains("critical [\(pid)] crashed on \($0)") }, "log:\n\(log)")
        if crash == .trap { #expect(log.contains("Fatal error: TABSHELL_TEST_CRASH=trap")) }
        print("crash guard: \(crash.rawValue) → exit \(code ?? -1), terminal restored, \(String(format: "%.2f", seconds)) s to the shell prompt")
    }
}
