/// A cell's colour: the 24-bit value, and its nearest entry in the xterm 256-colour palette for
/// terminals that have no more (in a palette mode, the exact index the renderer chose).
public struct CellColor: Hashable, Sendable, Codable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    public var index256: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8, index256: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
        self.index256 = index256
    }

    /// From 0xRRGGBB, with the nearest palette index computed.
    public init(rgb: UInt32) {
        let red = UInt8((rgb >> 16) & 0xFF), green = UInt8((rgb >> 8) & 0xFF), blue = UInt8(rgb & 0xFF)
        self.init(red: red, green: green, blue: blue, index256: Palette256.nearestIndex(red: red, green: green, blue: blue))
    }

    /// 0xRRGGBB.
    public var rgb: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }
}
