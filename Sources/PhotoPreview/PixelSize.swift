/// A size in image pixels.
public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width < 1 || height < 1 }
    /// Width × height without overflow (a header may claim anything up to Int32.max per side).
    public var pixelCount: Int {
        guard width > 0, height > 0 else { return 0 }
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? Int.max : product
    }
    public var description: String { "\(width)x\(height)" }
}
