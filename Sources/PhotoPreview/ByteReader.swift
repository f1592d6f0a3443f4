/// Reads little-endian values from a byte array; every read is nil past the end.
struct ByteReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { offset == bytes.count }

    mutating func read(count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func readUInt8() -> UInt8? { read(count: 1)?.first }

    mutating func readUInt16() -> UInt16? {
        guard let slice = read(count: 2) else { return nil }
        return slice.reversed().reduce(0) { $0 << 8 | UInt16($1) }
    }

    mutating func readUInt32() -> UInt32? {
        guard let slice = read(count: 4) else { return nil }
        return slice.reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}
