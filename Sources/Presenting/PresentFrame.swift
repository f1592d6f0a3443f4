import Foundation

/// One message between a presenting session and a watcher, on the wire as a 4-byte big-endian
/// length, a kind byte and the payload. Lengths are bounded both ways: a frame over
/// ``maximumBytes`` is never written, and a reader that meets one stops reading that peer.
public struct PresentFrame: Equatable, Sendable {
    public enum Kind: UInt8, Sendable {
        /// The presenter's screen state (the payload is its JSON).
        case state = 1
        /// The presentation ended; no payload.
        case ended = 2
        /// The presentation has as many watchers as it takes; no payload.
        case full = 3
        /// A watcher's first frame to the room: its name in UTF-8, at most ``maximumNameBytes``.
        case hello = 4
    }

    /// The longest name a watcher's hello carries.
    public static let maximumNameBytes = 64

    /// A watcher's hello saying `name` (cut to ``maximumNameBytes`` on a character boundary).
    public static func hello(name: String) -> PresentFrame {
        var cut = ""
        for character in name where character.isLetter || character.isNumber || " ._-@".contains(character) {
            guard cut.utf8.count + String(character).utf8.count <= maximumNameBytes else { break }
            cut.append(character)
        }
        return PresentFrame(.hello, payload: Data(cut.utf8))
    }

    /// The name a hello's payload carries: letters, digits, space and `._-@` only, or nil.
    public static func name(from payload: Data) -> String? {
        guard payload.count <= maximumNameBytes, let text = String(data: payload, encoding: .utf8) else { return nil }
        let kept = text.filter { $0.isLetter || $0.isNumber || " ._-@".contains($0) }
        return kept.isEmpty ? nil : kept
    }

    /// The largest frame either side accepts: a state is a few kilobytes, its lists bounded.
    public static let maximumBytes = 1 << 20

    public var kind: Kind
    public var payload: Data

    public init(_ kind: Kind, payload: Data = Data()) {
        self.kind = kind
        self.payload = payload
    }

    /// The frame's bytes, or nil when it is over the bound.
    public func encoded() -> Data? {
        let length = payload.count + 1
        guard length <= Self.maximumBytes else { return nil }
        var bytes = Data(capacity: length + 4)
        let big = UInt32(length).bigEndian
        withUnsafeBytes(of: big) { bytes.append(contentsOf: $0) }
        bytes.append(kind.rawValue)
        bytes.append(payload)
        return bytes
    }

    /// What a reader met that ends the connection.
    public enum Problem: Error, Equatable, Sendable {
        case oversized(Int)
        case empty
        case unknownKind(UInt8)
    }
}

/// Reads frames out of bytes arriving in any pieces, holding at most one frame's worth.
public struct PresentFrameReader: Sendable {
    private var buffer = Data()
    public let maximumBytes: Int

    public init(maximumBytes: Int = PresentFrame.maximumBytes) {
        self.maximumBytes = maximumBytes
    }

    /// Adds bytes and returns the frames now complete; throws at the first bad frame.
    public mutating func append(_ bytes: Data) throws(PresentFrame.Problem) -> [PresentFrame] {
        buffer.append(bytes)
        var frames: [PresentFrame] = []
        while buffer.count >= 4 {
            let start = buffer.startIndex
            let length = buffer[start..<start + 4].reduce(0) { ($0 << 8) | Int($1) }
            guard length <= maximumBytes else { throw .oversized(length) }
            guard length > 0 else { throw .empty }
            guard buffer.count >= 4 + length else { break }
            let kindByte = buffer[start + 4]
            guard let kind = PresentFrame.Kind(rawValue: kindByte) else { throw .unknownKind(kindByte) }
            frames.append(PresentFrame(kind, payload: Data(buffer[(start + 5)..<(start + 4 + length)])))
            buffer = Data(buffer[(start + 4 + length)...])
        }
        return frames
    }
}
