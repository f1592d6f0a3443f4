import Foundation
import Testing

@testable import Recording

/// The writer: the header, events, UTF-8 cut between reads, resizes, the size limit.
@Suite struct CastEncoderTests {
    static func json(_ line: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])
    }

    @Test func theHeaderIsVersionTwoWithTheSizeTimeAndTerm() throws {
        var encoder = CastEncoder(header: CastHeader(width: 100, height: 30, timestamp: 1_795_730_398, environment: ["TERM": "xterm-256color"]))
        let begun = encoder.begin()
        let line = try #require(begun)
        #expect(line == #"{"version": 2, "width": 100, "height": 30, "timestamp": 1795730398, "env": {"TERM": "xterm-256color"}}"# + "\n")
        let object = try #require(try Self.json(line) as? [String: Any])
        #expect(object["version"] as? Int == 2 && object["width"] as? Int == 100 && object["height"] as? Int == 30)
        #expect(encoder.begin() == nil, "asked once")
    }

    @Test func outputAndResizeEventsAreJSONArrays() throws {
        var encoder = CastEncoder(header: CastHeader(width: 80, height: 24))
        _ = encoder.begin()
        let output = encoder.output(Array("\u{1B}[1mInbox\r\n\"q\"\\ \t\u{07}".utf8), at: 0.25)
        #expect(output == [#"[0.250000, "o", "\u001b[1mInbox\r\n\"q\"\\ \t\u0007"]"# + "\n"])
        let array = try #require(try Self.json(output[0]) as? [Any])
        #expect(array[2] as? String == "\u{1B}[1mInbox\r\n\"q\"\\ \t\u{07}")
        #expect(encoder.resize(columns: 90, rows: 28, at: 1.5) == [#"[1.500000, "r", "90x28"]"# + "\n"])
        #expect(encoder.resize(columns: 90, rows: 28, at: 1.6).isEmpty, "the same size is not recorded twice")
        #expect(encoder.resize(columns: 80, rows: 24, at: 1.0) == [#"[1.500000, "r", "80x24"]"# + "\n"], "times never go back")
    }

    @Test func aCharacterCutBetweenReadsIsCarriedToTheNextEvent() throws {
        let text = "é€😀 Inbox ─ ✓"
        let bytes = Array(text.utf8)
        // Every way of cutting the bytes in two, and every byte on its own.
        for cut in 1..<bytes.count {
            var encoder = CastEncoder(header: CastHeader(width: 80, height: 24))
            let lines = encoder.output(bytes[..<cut], at: 0) + encoder.output(bytes[cut...], at: 0.1) + encoder.end(at: 0.2)
            let texts = try lines.map { try #require((try Self.json($0) as? [Any])?[2] as? String) }
            #expect(texts.joined() == text, "cut at \(cut)")
            #expect(!texts.joined().contains("\u{FFFD}"))
        }
        var encoder = CastEncoder(header: CastHeader(width: 80, height: 24))
        var lines: [String] = []
        for byte in bytes { lines += encoder.output([byte], at: 0) }
        let texts = try lines.map { try #require((try Self.json($0) as? [Any])?[2] as? String) }
        #expect(texts.joined() == text)
    }

    @Test func bytesThatAreNotUTF8BecomeReplacementCharacters() throws {
        var encoder = CastEncoder(header: CastHeader(width: 80, height: 24))
        let lines = encoder.output([0x41, 0xFF, 0x42, 0xE2, 0x82], at: 0) + encoder.end(at: 1)
        let texts = try lines.map { try #require((try Self.json($0) as? [Any])?[2] as? String) }
        #expect(texts.joined() == "A\u{FFFD}B\u{FFFD}")
    }

    @Test func aLongWriteIsSplitIntoBoundedEventsBetweenCharacters() throws {
        let text = String(repeating: "€", count: 40_000)  // 120,000 bytes
        var encoder = CastEncoder(header: CastHeader(width: 80, height: 24))
        let lines = encoder.output(Array(text.utf8), at: 0)
        #expect(lines.count == 4)
        let texts = try lines.map { try #require((try Self.json($0) as? [Any])?[2] as? String) }
        #expect(texts.allSatisfy { $0.utf8.count <= CastEncoder.maximumEventBytes })
        #expect(texts.joined() == text)
    }

    @Test func overTheLimitTheCastStopsGrowingWithWholeLines() throws {
        var encoder = CastEncoder(header: CastHeader(width: 80, height: 24), sizeLimit: 200)
        let begun = encoder.begin()
        let header = try #require(begun)
        var written = header
        for index in 0..<20 {
            written += encoder.output(Array("frame \(index) ".utf8), at: Double(index)).joined()
        }
        #expect(encoder.reachedLimit)
        #expect(written.utf8.count <= 200 && written.utf8.count == encoder.bytesEncoded)
        #expect(encoder.output(Array("more".utf8), at: 30).isEmpty)
        #expect(encoder.resize(columns: 10, rows: 10, at: 31).isEmpty)
        // What was written is a whole, readable cast.
        let cast = try CastReader.parse(Data(written.utf8))
        #expect(cast.outputText.hasPrefix("frame 0 frame 1 "))
    }
}
