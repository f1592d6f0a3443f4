/// A fixed picture for snapshots: a white disc on black with a red square in its top-left
/// quadrant, 96 × 48 pixels.
enum KnownImage {
    static let width = 96
    static let height = 48

    static let pixels: [UInt8] = {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) - 47.5, dy = (Double(y) - 23.5) * 2
                let inDisc = dx * dx + dy * dy < 40 * 40
                let inSquare = (8..<32).contains(x) && (4..<16).contains(y)
                let color: (UInt8, UInt8, UInt8) = inSquare ? (255, 0, 0) : inDisc ? (255, 255, 255) : (0, 0, 0)
                pixels += [color.0, color.1, color.2]
            }
        }
        return pixels
    }()
}
