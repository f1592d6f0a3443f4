import PhotoPreview

/// What looking for codes in one photo may cost.
public struct PhotoCodeLimits: Hashable, Sendable {
    /// The photo limits previews use (pixels, decoder memory), checked against the header
    /// before any pixel is decoded: a photo too large to preview is too large to scan.
    public var photo: PreviewLimits
    /// The photo is shrunk (never enlarged) to fit a square this many pixels on a side, and
    /// zbar looks for linear codes in that. Its time grows with the pixels, and the grey
    /// buffer takes side² bytes at most.
    public var scanSide: Int
    /// QR codes are looked for in a copy shrunk by the smallest whole factor that fits it in
    /// this. zbar's QR search can take time in proportion to the pixels squared (an image
    /// tiled with finder patterns), so this bounds the worst case; QR modules are large
    /// enough for it in practice.
    public var qrScanSide: Int
    /// Decoding past this is stopped and reported as `.timedOut`; zero or less means none.
    /// zbar's own scan cannot be interrupted: the two sides bound it instead.
    public var decodeTimeout: Duration

    public init(
        photo: PreviewLimits = .standard, scanSide: Int = 2000, qrScanSide: Int = 1000,
        decodeTimeout: Duration = .seconds(10)
    ) {
        self.photo = photo
        self.scanSide = scanSide
        self.qrScanSide = qrScanSide
        self.decodeTimeout = decodeTimeout
    }

    /// Preview's photo limits; linear codes at 2,000 pixels a side, so a 12-megapixel phone
    /// photo (4000 × 3000) is scanned at 2000 × 1500 (JPEG shrinks by 2 while decoding) and an
    /// EAN-13 a fifth of the photo wide keeps 3.5 pixels a module; QR at 1,000 a side; ten
    /// seconds to decode.
    public static let standard = PhotoCodeLimits()
}
