/// A rectangle in a photo's pixels, upright (origin top left).
public struct CodeBox: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
