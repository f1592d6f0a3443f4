import Foundation
import Testing

@testable import Presenting

@Suite struct PresentFrameTests {
    @Test func framesReadBackWhateverPiecesTheyArriveIn() throws {
        let frames = [
            PresentFrame(.state, payload: Data("{\"a\":1}".utf8)), PresentFrame(.state, payload: Data(repeating: 7, count: 70_000)),
            PresentFrame(.ended),
        ]
        let bytes = frames.compactMap { $0.encoded() }.reduce(Data(), +)
        for piece in [1, 3, 5, 4096, bytes.count] {
            var reader = PresentFrameReader()
            var read: [PresentFrame] = []
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + piece)
                read += try reader.append(bytes.subdata(in: offset..<end))
                offset = end
            }
            #expect(read == frames, "in pieces of \(piece)")
        }
    }

    @Test func aFrameOverTheBoundIsNeitherWrittenNorRead() {
        #expect(PresentFrame(.state, payload: Data(count: PresentFrame.maximumBytes)).encoded() == nil)
        var reader = PresentFrameReader()
        // Only the length is read: the reader refuses before holding any of it.
        #expect(throws: PresentFrame.Problem.oversized(0x7fff_ffff)) { try reader.append(Data([0x7f, 0xff, 0xff, 0xff])) }
    }

    @Test func emptyAndUnknownFramesAreRefused() {
        var reader = PresentFrameReader()
        #expect(throws: PresentFrame.Problem.empty) { try reader.append(Data([0, 0, 0, 0])) }
        var other = PresentFrameReader()
        #expect(throws: PresentFrame.Problem.unknownKind(9)) { try other.append(Data([0, 0, 0, 1, 9])) }
    }

    @Test func garbageEitherReadsAsFramesOrIsRefusedNeverMore() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let count = Int.random(in: 0...64, using: &generator)
            let bytes = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
            var reader = PresentFrameReader(maximumBytes: 64)
            do {
                let frames = try reader.append(bytes)
                #expect(frames.allSatisfy { $0.payload.count < 64 })
            } catch {
                // Refused: the connection ends, which is all a watcher does with garbage.
            }
        }
    }
}
