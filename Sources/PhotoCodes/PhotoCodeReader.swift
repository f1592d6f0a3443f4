import Foundation
import PhotoPreview

/// Finds the barcodes in a photo: the header is checked against the limits, the photo is
/// decoded to grey (shrunk to fit `PhotoCodeLimits.scanSide`), zbar scans every row and column
/// of it for linear codes, and of a smaller copy (`qrScanSide`) for QR codes.
/// Synchronous and self-contained — one zbar scanner per call, no shared state — so the app
/// calls it off its main loop, on any thread, as many at once as it likes.
public enum PhotoCodeReader {
    /// The codes in the photo, top to bottom then left to right; `[]` when there are none.
    public static func codes(in file: URL, limits: PhotoCodeLimits = .standard) throws(PhotoCodeError) -> [FoundCode] {
        let header: PhotoHeader
        do throws(PreviewError) {
            header = try PreviewPipeline(limits: limits.photo).checkedHeader(of: file)
        } catch {
            throw .photo(error)
        }
        let grey = try GreyDecoder.decode(file, fittingSide: limits.scanSide, timeout: limits.decodeTimeout)
        let shown = header.displaySize
        var found: [FoundCode] = []
        // QR gets an image shrunk by a whole factor to fit qrScanSide (see ZbarScanner.Pass.qr).
        let qrFactor = Int((Double(max(grey.width, grey.height)) / Double(max(1, limits.qrScanSide))).rounded(.up))
        if qrFactor <= 1 {
            found += try ZbarScanner.scan(grey, pass: .all).map { code($0, in: grey, shown: shown) }
        } else {
            found += try ZbarScanner.scan(grey, pass: .linear).map { code($0, in: grey, shown: shown) }
            let small = grey.shrunk(by: qrFactor)
            found += try ZbarScanner.scan(small, pass: .qr).map { code($0, in: small, shown: shown) }
        }
        return found.sorted { ($0.box.y, $0.box.x, $0.text) < ($1.box.y, $1.box.x, $1.text) }
    }

    /// zbar's symbol with its place scaled from the scanned image to the photo as shown.
    private static func code(_ symbol: ZbarScanner.Symbol, in image: GreyImage, shown: PixelSize) -> FoundCode {
        let scaleX = Double(shown.width) / Double(image.width), scaleY = Double(shown.height) / Double(image.height)
        let box = CodeBox(
            x: Int((Double(symbol.minX) * scaleX).rounded(.down)),
            y: Int((Double(symbol.minY) * scaleY).rounded(.down)),
            width: max(1, Int((Double(symbol.maxX + 1 - symbol.minX) * scaleX).rounded(.up))),
            height: max(1, Int((Double(symbol.maxY + 1 - symbol.minY) * scaleY).rounded(.up)))
        )
        return FoundCode(
            symbology: symbol.name, text: symbol.text,
            aimIdentifier: AIMIdentifiers.identifier(for: symbol.type, gs1: symbol.isGS1, aimFlagged: symbol.isAIMFlagged),
            isGS1: symbol.isGS1, box: box, orientation: symbol.orientation
        )
    }
}
