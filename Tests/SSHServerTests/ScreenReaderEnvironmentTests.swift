import Testing

@testable import SSHServer

/// `ssh -o SetEnv=TABSHELL_SCREEN_READER=1 host` turns the served app's screen-reader mode on
///: the variable is the one the server takes besides the locale's, and only as a short
/// plain word.
@Suite struct ScreenReaderEnvironmentTests {
    @Test func theScreenReaderVariablePassesAsAShortWord() {
        for value in ["1", "0", "yes", "true", "off"] {
            #expect(ClientEnvironment.accepts(name: "TABSHELL_SCREEN_READER", value: value), "\(value)")
        }
        for value in ["1\u{1B}[2J", "\u{0}", "ON;rm", String(repeating: "1", count: 9), "1 "] {
            #expect(!ClientEnvironment.accepts(name: "TABSHELL_SCREEN_READER", value: value), "\(value.debugDescription)")
        }
        #expect(!ClientEnvironment.accepts(name: "TABSHELL_DATABASE_URL", value: "postgres://x"))
        #expect(!ClientEnvironment.accepts(name: "TABSHELL_SCREEN_READERX", value: "1"))
    }
}
