/// The xterm 256-colour palette's fixed part: the 6×6×6 cube (16–231) and the grey ramp
/// (232–255). The first 16 entries follow the terminal's theme, so nothing maps to them.
public enum Palette256 {
    private static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The palette entry closest to a colour (squared distance in RGB; cube or grey ramp).
    public static func nearestIndex(red: UInt8, green: UInt8, blue: UInt8) -> UInt8 {
        let (r, g, b) = (Int(red), Int(green), Int(blue))
        let (cr, cg, cb) = (nearestLevel(r), nearestLevel(g), nearestLevel(b))
        let cubeDistance = distance(r, g, b, cubeLevels[cr], cubeLevels[cg], cubeLevels[cb])
        let grey = nearestGrey((r + g + b) / 3)
        let greyValue = 8 + 10 * grey
        let greyDistance = distance(r, g, b, greyValue, greyValue, greyValue)
        if greyDistance < cubeDistance { return UInt8(232 + grey) }
        return UInt8(16 + 36 * cr + 6 * cg + cb)
    }

    /// The colour of a palette entry from 16 up (nil below 16: those belong to the theme).
    public static func rgb(ofIndex index: UInt8) -> UInt32? {
        switch index {
        case 16...231:
            let offset = Int(index) - 16
            let (r, g, b) = (cubeLevels[offset / 36], cubeLevels[(offset / 6) % 6], cubeLevels[offset % 6])
            return UInt32(r << 16 | g << 8 | b)
        case 232...255:
            let value = 8 + 10 * (Int(index) - 232)
            return UInt32(value << 16 | value << 8 | value)
        default:
            return nil
        }
    }

    private static func nearestLevel(_ value: Int) -> Int {
        var best = 0
        for (level, candidate) in cubeLevels.enumerated() where abs(candidate - value) < abs(cubeLevels[best] - value) {
            best = level
        }
        return best
    }

    /// The grey ramp runs 8, 18, …, 238.
    private static func nearestGrey(_ value: Int) -> Int {
        min(23, max(0, (value - 8 + 5) / 10))
    }

    private static func distance(_ r1: Int, _ g1: Int, _ b1: Int, _ r2: Int, _ g2: Int, _ b2: Int) -> Int {
        (r1 - r2) * (r1 - r2) + (g1 - g2) * (g1 - g2) + (b1 - b2) * (b1 - b2)
    }
}
