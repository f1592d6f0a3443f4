/// What a photo's header says, read before any pixel is decoded.
public struct PhotoHeader: Hashable, Sendable {
    /// The first page's size as stored.
    public var storedSize: PixelSize
    public var bands: Int
    public var bytesPerSample: Int
    public var pages: Int
    /// Progressive JPEG or interlaced PNG: the decoder holds the whole image, it cannot stream.
    public var interlaced: Bool
    /// The EXIF orientation turns the photo a quarter.
    public var orientationSwaps: Bool
    public var iccProfileBytes: Int
    /// The decoder's name for the format, such as "jpegload".
    public var loader: String

    public init(
        storedSize: PixelSize, bands: Int, bytesPerSample: Int, pages: Int, interlaced: Bool,
        orientationSwaps: Bool, iccProfileBytes: Int, loader: String
    ) {
        self.storedSize = storedSize
        self.bands = bands
        self.bytesPerSample = bytesPerSample
        self.pages = pages
        self.interlaced = interlaced
        self.orientationSwaps = orientationSwaps
        self.iccProfileBytes = iccProfileBytes
        self.loader = loader
    }

    /// The size as shown, upright.
    public var displaySize: PixelSize {
        orientationSwaps ? PixelSize(width: storedSize.height, height: storedSize.width) : storedSize
    }
}
