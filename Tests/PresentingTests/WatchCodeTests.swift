import Foundation
import Testing

@testable import Presenting

#if canImport(Glibc)
import Glibc
#endif

/// Watch codes: long enough that no rate a server allows finds one, short and plain
/// enough to read aloud and type; and the room knows who watches, by name.
@Suite struct WatchCodeTests {
    @Test func aCodeIsTwelveSymbolsWithoutLookAlikesInThreeGroups() {
        var generator = SystemRandomNumberGenerator()
        let codes = (0..<200).map { _ in WatchCode.random(using: &generator) }
        for code in codes {
            #expect(code.text.count == 14 && code.text.split(separator: "-").map(\.count) == [4, 4, 4], "\(code)")
            #expect(code.text.allSatisfy { $0 == "-" || WatchCode.alphabet.contains($0) })
            #expect(WatchCode(code.text) == code)
        }
        #expect(Set(codes).count == codes.count)
        for lookAlike in ["0", "1", "i", "l", "o"] { #expect(!WatchCode.alphabet.contains(Character(lookAlike))) }
        // 31^12: about 7.9e17 codes, 59 bits.
        let possibleCodes = pow(Double(WatchCode.alphabet.count), Double(WatchCode.length))
        #expect(possibleCodes > 7.8e17 && log2(possibleCodes) > 59)
    }

    @Test func aCodeIsReadAsTypedInAnyCaseWithOrWithoutItsDashes() {
        let code = WatchCode("k7mq-3fzp-x9hd")
        #expect(code?.text == "k7mq-3fzp-x9hd")
        #expect(WatchCode("K7MQ3FZPX9HD") == code)
        #expect(WatchCode("k7mq 3fzp x9hd") == code)
        let bad = [
            "", "4821", "48210000", "k7mq-3fzp-x9h", "k7mq-3fzp-x9hdd", "k7mq-3fzp-x9h0", "k7mq-3fzp-x9hl", "../k7mq-3fzp-x9",
            "k7mq/3fzp/x9hd", "k7mq-3fzp-x9hé", String(repeating: "-", count: 40) + "k7mq3fzpx9hd",
        ]
        for text in bad { #expect(WatchCode(text) == nil, "\(text)") }
    }

    private func folder() throws -> PresentDirectory {
        let directory = PresentDirectory(path: NSTemporaryDirectory() + "present-\(UUID().uuidString.prefix(8))")
        try directory.prepare()
        return directory
    }

    @Test func theRoomOpensUnderTheCodeItIsGivenAndListsWatchersByName() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(atPath: directory.path) }
        let given = try #require(WatchCode("abcd-efgh-jkmn"))
        let room = try PresentationRoom(directory: directory, code: given)
        defer { room.end() }
        #expect(room.code == given)
        // A second room cannot take a live code.
        #expect(throws: PresentError.self) { try PresentationRoom(directory: directory, code: given) }

        let ana = try WatchConnection(code: given, directory: directory, name: "ana")
        let bo = try WatchConnection(code: given, directory: directory, name: "bo\u{1B}]52;c;x\u{07}")
        while room.watcherNames != ["ana", "bo52cx"] { usleep(2000) }
        ana.leave()
        while room.watcherNames != ["bo52cx"] { usleep(2000) }
        bo.leave()
    }
}
