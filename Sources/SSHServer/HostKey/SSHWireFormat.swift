import Foundation

/// Reads the SSH wire encoding (RFC 4251 §5): big-endian uint32s and length-prefixed strings.
struct SSHWireReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func readUInt32() -> UInt32? {
        guard bytes.count - offset >= 4 else { return nil }
        let value = bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        offset += 4
        return value
    }

    mutating func readBytes(count: Int) -> [UInt8]? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func readString() -> [UInt8]? {
        guard let length = readUInt32() else { return nil }
        return readBytes(count: Int(length))
    }

    mutating func readUTF8String() -> String? {
        readString().flatMap { String(bytes: $0, encoding: .utf8) }
    }
}

/// Writes the SSH wire encoding.
struct SSHWireWriter {
    private(set) var bytes: [UInt8] = []

    mutating func writeUInt32(_ value: UInt32) {
        bytes += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    mutating func writeString<Bytes: Collection>(_ value: Bytes) where Bytes.Element == UInt8 {
        writeUInt32(UInt32(value.count))
        bytes += value
    }

    mutating func writeString(_ value: String) {
        writeString(Array(value.utf8))
    }

    mutating func writeRaw<Bytes: Collection>(_ value: Bytes) where Bytes.Element == UInt8 {
        bytes += value
    }
}
