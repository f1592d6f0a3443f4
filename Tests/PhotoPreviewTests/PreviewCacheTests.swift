import Domain
import Foundation
import TestSupport
import Testing

@testable import PhotoPreview

/// The disk cache: round trips, eviction, damage, atomic writes.
@Suite struct PreviewCacheTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    static let hash = String(repeating: "ab", count: 32)

    static func key(_ hash: String = hash, columns: Int = 4) -> PreviewKey {
        guard let key = PreviewKey(contentHash: hash, box: CellSize(columns: columns, rows: 2), mode: .symbols(.blocks, .palette256), cell: .typical) else {
            preconditionFailure("test hashes are valid")
        }
        return key
    }

    static let grid: PreviewImage = {
        let red = PreviewColor(rgb: 0xFF0000, index256: 196)
        let cells = [
            PreviewImage.Cell(character: "▀", foreground: red, background: nil),
            PreviewImage.Cell(character: " ", foreground: nil, background: PreviewColor(rgb: 0x010203, index256: 16)),
            PreviewImage.Cell(character: "\u{1FB00}", foreground: red, background: red),
            PreviewImage.Cell(character: "#"),
        ]
        guard let grid = PreviewImage(size: CellSize(columns: 2, rows: 2), cells: cells) else { preconditionFailure("4 cells for 2×2") }
        return grid
    }()

    static let graphics: PreviewImage = {
        let sequence = PreviewGraphics(graphics: .kitty, sequence: "\u{1B}_Gq=2;AAAA\u{1B}\\")
        guard let picture = PreviewImage(size: CellSize(columns: 3, rows: 1), graphics: sequence) else { preconditionFailure("a picture") }
        return picture
    }()

    @Test(arguments: [grid, graphics])
    func theCodecRoundTrips(image: PreviewImage) {
        #expect(PreviewImageCodec.decode(PreviewImageCodec.encode(image)) == image)
    }

    @Test func theCodecRefusesDamage() {
        let bytes = PreviewImageCodec.encode(Self.grid)
        #expect(PreviewImageCodec.decode(Array(bytes.dropLast())) == nil)
        #expect(PreviewImageCodec.decode(bytes + [0]) == nil)
        #expect(PreviewImageCodec.decode([]) == nil)
        var wrongMagic = bytes
        wrongMagic[0] = UInt8(ascii: "X")
        #expect(PreviewImageCodec.decode(wrongMagic) == nil)
        var invalidScalar = bytes
        invalidScalar.replaceSubrange(10..<14, with: [0x00, 0xD8, 0x00, 0x00])  // U+D800, a surrogate
        #expect(PreviewImageCodec.decode(invalidScalar) == nil)
        var hugeSize = bytes
        hugeSize.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(PreviewImageCodec.decode(hugeSize) == nil)
    }

    @Test func aStoredPreviewIsFoundAgain() {
        let cache = PreviewCache(directory: folder.url)
        #expect(cache.image(for: Self.key()) == nil)
        #expect(cache.store(Self.grid, for: Self.key()))
        #expect(cache.image(for: Self.key()) == Self.grid)
        #expect(cache.image(for: Self.key(columns: 5)) == nil)
    }

    @Test func writesLeaveNoTemporaryFiles() throws {
        let cache = PreviewCache(directory: folder.url.appendingPathComponent("previews"))
        cache.store(Self.grid, for: Self.key())
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path)
        #expect(names == [Self.key().fileName])
    }

    @Test func aDamagedFileIsAMissAndIsRemoved() throws {
        let cache = PreviewCache(directory: folder.url)
        cache.store(Self.grid, for: Self.key())
        let file = folder.url.appendingPathComponent(Self.key().fileName)
        try Data([1, 2, 3]).write(to: file)
        #expect(cache.image(for: Self.key()) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func theLeastRecentlyUsedGoFirst() throws {
        let entryBytes = PreviewImageCodec.encode(Self.grid).count
        let cache = PreviewCache(directory: folder.url, byteLimit: entryBytes * 3)
        let keys = (0..<3).map { Self.key(String(repeating: String($0), count: 64)) }
        for (age, key) in keys.enumerated() {
            cache.store(Self.grid, for: key)
            // Modification times order the entries; set them apart rather than sleep.
            let file = folder.url.appendingPathComponent(key.fileName)
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: Double(age - 100))], ofItemAtPath: file.path)
        }
        #expect(cache.image(for: keys[0]) != nil)  // used now: the newest
        cache.store(Self.grid, for: Self.key(String(repeating: "f", count: 64)))
        let stored = try FileManager.default.contentsOfDirectory(at: folder.url, includingPropertiesForKeys: [.fileSizeKey])
        #expect(try stored.reduce(0) { $0 + (try $1.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) } <= entryBytes * 3)
        #expect(cache.image(for: keys[1]) == nil)
        #expect(cache.image(for: keys[0]) != nil)
        #expect(cache.image(for: keys[2]) != nil)
    }

    @Test func keysRefuseWhatIsNotAHash() {
        #expect(PreviewKey(contentHash: "../../etc/passwd", box: CellSize(columns: 1, rows: 1), mode: .graphics(.sixel), cell: .typical) == nil)
        #expect(PreviewKey(contentHash: String(repeating: "g", count: 64), box: CellSize(columns: 1, rows: 1), mode: .graphics(.sixel), cell: .typical) == nil)
        let upper = PreviewKey(contentHash: String(repeating: "AB", count: 32), box: CellSize(columns: 1, rows: 1), mode: .graphics(.sixel), cell: .typical)
        #expect(upper?.contentHash == Self.hash)
    }
}
