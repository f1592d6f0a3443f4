import Foundation
import PhotoPreview
import TestSupport
import Testing

@Suite struct ContentHashTests {
    @Test func hashesTheFileBytes() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(Array("abc".utf8), to: "abc")
        // FIPS 180-2's first example.
        #expect(try ContentHash.sha256(of: file) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hashesAFileLargerThanOneRead() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write([UInt8](repeating: 0x61, count: 1_000_000 * 3), to: "a")
        #expect(try ContentHash.sha256(of: file).count == 64)
        #expect(try ContentHash.sha256(of: file) != ContentHash.sha256(of: try folder.write([UInt8](repeating: 0x61, count: 1_000_000 * 3 - 1), to: "b")))
    }

    @Test func aMissingFileSaysSo() throws {
        let folder = try TemporaryFolder()
        #expect(throws: PreviewError.missing) { try ContentHash.sha256(of: folder.file("nothing")) }
    }
}
