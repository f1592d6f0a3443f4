/// A rectangle in a photo's pixels, upright (origin top left).
public struct CodeBox: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public var midX: Int { x + width / 2 }
    public var midY: Int { y + height / 2 }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
