import Testing

@testable import SSHServer

@Suite struct ShellWordsTests {
    @Test(arguments: [
        ("history export --format csv", ["history", "export", "--format", "csv"]),
        ("  inbox   add  ", ["inbox", "add"]),
        ("inbox add 'two words' \"and \\\"more\\\"\"", ["inbox", "add", "two words", "and \"more\""]),
        ("photos add shelf\\ 1.jpg", ["photos", "add", "shelf 1.jpg"]),
        ("a''b \"\"", ["ab", ""]),
        ("echo $HOME `x`", ["echo", "$HOME", "`x`"]),
    ])
    func splitsLikeAShellWithoutExpanding(line: String, words: [String]) {
        #expect(ShellWords.split(line) == words)
    }

    @Test(arguments: ["'open", "\"open", "trailing\\"])
    func anOpenQuoteIsNoCommand(line: String) {
        #expect(ShellWords.split(line) == nil)
    }
}
