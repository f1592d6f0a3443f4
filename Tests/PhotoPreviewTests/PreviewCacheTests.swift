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
        guard let key = PreviewKey(contentHash: hash, box: CellSize(columns: columns, rows: 2), mode: .symbols(.blocks, .truecolor), cell: .typical) else {
            preconditionFailure("test hashes are valid")
        }
        return key
    }

    static let grid: CellImage = {
        let red = CellColor(rgb: 0xFF0000)
        let cells = [
            PreviewCell(character: "▀", foreground: red, background: nil),
            PreviewCell(character: " ", foreground: nil, background: CellColor(red: 1, green: 2, blue: 3, index256: 16)),
            PreviewCell(character: "\u{1FB00}", foreground: red, background: red),
            PreviewCell(character: "#"),
        ]
        guard let grid = CellGrid(size: CellSize(columns: 2, rows: 2), cells: cells) else { preconditionFailure("4 cells for 2×2") }
        return .cells(grid)
    }()

    static let graphics = CellImage.graphics(GraphicsImage(graphicsProtocol: .kitty, size: CellSize(columns: 3, rows: 1), sequence: "\u{1B}_Gq=2;AAAA\u{1B}\\"))

    @Test(arguments: [grid, graphics])
    func theCodecRoundTrips(image: CellImage) {
        #expect(CellImageCodec.decode(CellImageCodec.encode(image)) == image)
    }

    @Test func theCodecRefusesDamage() {
        let bytes = CellImageCodec.encode(Self.grid)
        #expect(CellImageCodec.decode(Array(bytes.dropLast())) == nil)
        #expect(CellImageCodec.decode(bytes + [0]) == nil)
        #expect(CellImageCodec.decode([]) == nil)
        var wrongMagic = bytes
        wrongMagic[0] = UInt8(ascii: "X")
        #expect(CellImageCodec.decode(wrongMagic) == nil)
        var invalidScalar = bytes
        invalidScalar.replaceSubrange(10..<14, with: [0x00, 0xD8, 0x00, 0x00])  // U+D800, a surrogate
        #expect(CellImageCodec.decode(invalidScalar) == nil)
        var hugeSize = bytes
        hugeSize.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(CellImageCodec.decode(hugeSize) == nil)
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
        let entryBytes = CellImageCodec.encode(Self.grid).count
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
        #expect(cache.storedBytes() <= entryBytes * 3)
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
