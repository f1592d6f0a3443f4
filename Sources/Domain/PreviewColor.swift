import Foundation

/// A preview cell's colour: the 24-bit value and its entry in the xterm 256-colour palette (the
/// exact entry in a 256-colour rendering). The terminal layer draws whichever it can.
public struct PreviewColor: Hashable, Sendable {
    /// 0xRRGGBB.
    public var rgb: UInt32
    public var index256: UInt8

    public init(rgb: UInt32, index256: UInt8) {
        self.rgb = rgb & 0xFF_FFFF
        self.index256 = index256
    }
}
