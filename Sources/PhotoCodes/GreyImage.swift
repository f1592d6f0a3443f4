/// Decoded pixels for zbar: 8-bit grey, one byte a pixel, rows packed (`width` bytes each).
struct GreyImage: Sendable {
    let width: Int
    let height: Int
    let pixels: [UInt8]

    /// Nil unless `pixels` holds exactly width × height bytes.
    init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Each `factor` × `factor` block averaged into one pixel (blocks at the right and bottom
    /// edges may be partial). `factor` 1 or less gives the image back.
    func shrunk(by factor: Int) -> GreyImage {
        guard factor > 1 else { return self }
        let newWidth = (width + factor - 1) / factor, newHeight = (height + factor - 1) / factor
        var output = [UInt8](repeating: 0, count: newWidth * newHeight)
        var sums = [UInt32](repeating: 0, count: newWidth)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { output in
                sums.withUnsafeMutableBufferPointer { sums in
                    for outY in 0..<newHeight {
                        let top = outY * factor, bottom = min(height, top + factor)
                        for outX in 0..<newWidth { sums[outX] = 0 }
                        for y in top..<bottom {
                            let row = y * width
                            for x in 0..<width { sums[x / factor] &+= UInt32(source[row + x]) }
                        }
                        for outX in 0..<newWidth {
                            let count = UInt32((bottom - top) * (min(width, (outX + 1) * factor) - outX * factor))
                            output[outY * newWidth + outX] = UInt8((sums[outX] + count / 2) / count)
                        }
                    }
                }
            }
        }
        return GreyImage(unchecked: newWidth, newHeight, output)
    }

    private init(unchecked width: Int, _ height: Int, _ pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}
