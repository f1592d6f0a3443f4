/// Decoded pixels: 8-bit sRGB with alpha, rows packed (`width * 4` bytes each).
public struct DecodedImage: Sendable {
    public let size: PixelSize
    public let rgba: [UInt8]

    /// Nil unless `rgba` holds exactly `size` pixels.
    public init?(size: PixelSize, rgba: [UInt8]) {
        guard !size.isEmpty, rgba.count == size.pixelCount * 4 else { return nil }
        self.size = size
        self.rgba = rgba
    }
}
