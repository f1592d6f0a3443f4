import Foundation

/// A C string buffer for CImageStack's error messages (PhotoCodes uses it too).
package struct MessageBuffer {
    package init() {}

    private var storage = [CChar](repeating: 0, count: 512)

    package mutating func withBuffer<R>(_ body: (UnsafeMutablePointer<CChar>, Int) -> R) -> R {
        storage.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { preconditionFailure("non-empty buffer has an address") }
            return body(base, buffer.count)
        }
    }

    package var text: String {
        let bytes = storage.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
