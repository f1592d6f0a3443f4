import Domain

/// What ``ImageInspector`` learned from the first bytes of a file.
public struct InspectedImage: Equatable, Sendable {
    public var format: ImageFormat
    /// 0 when the format was recognised but its dimensions lie beyond the bytes inspected.
    public var pixelWidth: Int
    /// 0 when the format was recognised but its dimensions lie beyond the bytes inspected.
    public var pixelHeight: Int
}
