import Domain

/// The cache's file format for a `PreviewImage`: a small binary layout, little-endian.
///
///     "TSPV" version:u8 kind:u8 columns:u16 rows:u16
///     kind 0 (cells), per cell: scalar:u32 flags:u8 [fg r,g,b,index] [bg r,g,b,index]
///                     (flags bit 0: foreground present, bit 1: background present)
///     kind 1 (graphics): protocol:u8 length:u32 sequence bytes (UTF-8)
///
/// Reading checks every length and value, so a damaged or foreign file is nil, never a crash.
enum PreviewImageCodec {
    static let version: UInt8 = 1
    private static let magic: [UInt8] = Array("TSPV".utf8)
    private static let maxSide = 10_000

    static func encode(_ image: PreviewImage) -> [UInt8] {
        var bytes = magic
        bytes.append(version)
        switch image.content {
        case .cells(let cells):
            bytes.append(0)
            appendSize(image.size, to: &bytes)
            bytes.reserveCapacity(bytes.count + cells.count * 13)
            for cell in cells {
                append(cell.character.value, to: &bytes)
                bytes.append((cell.foreground == nil ? 0 : 1) | (cell.background == nil ? 0 : 2))
                for color in [cell.foreground, cell.background].compactMap({ $0 }) {
                    let rgb = color.rgb
                    bytes.append(contentsOf: [UInt8(rgb >> 16), UInt8((rgb >> 8) & 0xFF), UInt8(rgb & 0xFF), color.index256])
                }
            }
        case .graphics(let graphics):
            bytes.append(1)
            appendSize(image.size, to: &bytes)
            bytes.append(UInt8(protocols.firstIndex(of: graphics.graphics) ?? 0))
            let sequence = Array(graphics.sequence.utf8)
            append(UInt32(sequence.count), to: &bytes)
            bytes.append(contentsOf: sequence)
        }
        return bytes
    }

    static func decode(_ bytes: [UInt8]) -> PreviewImage? {
        var reader = ByteReader(bytes)
        guard reader.read(count: magic.count) == magic[...], reader.readUInt8() == version,
            let kind = reader.readUInt8(), let columns = reader.readUInt16(), let rows = reader.readUInt16(),
            (1...maxSide).contains(Int(columns)), (1...maxSide).contains(Int(rows))
        else { return nil }
        let size = CellSize(columns: Int(columns), rows: Int(rows))
        let image: PreviewImage?
        switch kind {
        case 0:
            image = decodeCells(&reader, size: size)
        case 1:
            guard let code = reader.readUInt8().map(Int.init), protocols.indices.contains(code),
                let length = reader.readUInt32(), let sequence = reader.read(count: Int(length))
            else { return nil }
            image = PreviewImage(size: size, graphics: PreviewGraphics(graphics: protocols[code], sequence: String(decoding: sequence, as: UTF8.self)))
        default:
            return nil
        }
        return reader.isAtEnd ? image : nil
    }

    private static func decodeCells(_ reader: inout ByteReader, size: CellSize) -> PreviewImage? {
        // Each cell takes at least 5 bytes: refuse a header that promises more than the file holds.
        guard reader.remaining >= size.cellCount * 5 else { return nil }
        var cells: [PreviewImage.Cell] = []
        cells.reserveCapacity(size.cellCount)
        for _ in 0..<size.cellCount {
            guard let value = reader.readUInt32(), let character = Unicode.Scalar(value),
                let flags = reader.readUInt8(), flags & ~3 == 0
            else { return nil }
            var cell = PreviewImage.Cell(character: character)
            if flags & 1 != 0 {
                guard let color = readColor(&reader) else { return nil }
                cell.foreground = color
            }
            if flags & 2 != 0 {
                guard let color = readColor(&reader) else { return nil }
                cell.background = color
            }
            cells.append(cell)
        }
        return PreviewImage(size: size, cells: cells)
    }

    private static func readColor(_ reader: inout ByteReader) -> PreviewColor? {
        guard let parts = reader.read(count: 4) else { return nil }
        let start = parts.startIndex
        let rgb = UInt32(parts[start]) << 16 | UInt32(parts[start + 1]) << 8 | UInt32(parts[start + 2])
        return PreviewColor(rgb: rgb, index256: parts[start + 3])
    }

    private static func appendSize(_ size: CellSize, to bytes: inout [UInt8]) {
        append(UInt16(clamping: size.columns), to: &bytes)
        append(UInt16(clamping: size.rows), to: &bytes)
    }

    /// An integer's bytes, little-endian.
    private static func append(_ value: some FixedWidthInteger, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The graphics protocols by their code in the file: 0 sixel, 1 kitty, 2 iTerm2.
    private static let protocols: [TerminalGraphics] = [.sixel, .kitty, .iterm2]
}
