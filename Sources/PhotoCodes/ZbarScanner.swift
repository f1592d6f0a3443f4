import CImageStack
import PhotoPreview

/// The one file that talks to zbar, through CImageStack's wrappers (libzbar is opened on the
/// first scan). Each call makes its own image scanner, so calls on different threads share nothing.
enum ZbarScanner {
    /// A symbol as zbar reports it, in the scanned image's pixels.
    struct Symbol {
        var type: zbar_symbol_type_t
        var name: String
        var text: String
        var isGS1: Bool
        var isAIMFlagged: Bool
        var minX, minY, maxX, maxY: Int
        var orientation: CodeOrientation
    }

    /// What is read: EAN/UPC, ISBN-13 (978/979 EAN-13s, the same 13 digits), Code 128 (GS1-128
    /// included), Code 39, Interleaved 2 of 5, GS1 DataBar and DataBar Expanded — and QR.
    /// Left off: ISBN-10 (zbar would rewrite the EAN-13's digits into the 10-character form),
    /// EAN add-ons (2 and 5 digits; zbar reports them as composites and misreads them in
    /// photos), Codabar, Code 93, PDF417 (zbar's decoder is incomplete) and SQ code.
    enum Pass: CaseIterable {
        /// Costs time in proportion to the pixels.
        case linear
        /// zbar pairs every QR finder-pattern candidate with every other: an image tiled with
        /// finder patterns costs time in proportion to the pixels *squared* (measured: 0.35 s
        /// at 1000², 5.8 s at 2000², 56 s at 3000²). So QR gets its own, smaller image.
        case qr
        /// Both at once, for an image small enough for the QR pass.
        case all

        var types: [zbar_symbol_type_t] {
            switch self {
            case .linear: ZbarScanner.linearTypes
            case .qr: [ZBAR_QRCODE]
            case .all: ZbarScanner.linearTypes + [ZBAR_QRCODE]
            }
        }
    }

    static let linearTypes: [zbar_symbol_type_t] = [
        ZBAR_EAN13, ZBAR_EAN8, ZBAR_UPCA, ZBAR_UPCE, ZBAR_ISBN13, ZBAR_CODE128, ZBAR_CODE39, ZBAR_I25,
        ZBAR_DATABAR, ZBAR_DATABAR_EXP,
    ]
    /// Every symbology zbar 0.23 knows, to switch off what a pass does not read.
    static let allTypes: [zbar_symbol_type_t] =
        linearTypes + [
            ZBAR_QRCODE, ZBAR_EAN2, ZBAR_EAN5, ZBAR_ISBN10, ZBAR_CODABAR, ZBAR_CODE93, ZBAR_PDF417, ZBAR_SQCODE, ZBAR_COMPOSITE,
        ]

    /// More codes than any label sheet in a photo carries; a hostile image stops here.
    static let maximumSymbols = 256

    static func scan(_ image: GreyImage, pass: Pass) throws(PhotoCodeError) -> [Symbol] {
        do throws(ImageLibraryMissing) {
            try ImageLibrary.zbar.load()
        } catch {
            throw .libraryMissing(error)
        }
        guard let scanner = tsz_image_scanner_create() else {
            throw .readerUnavailable(detail: "zbar could not make an image scanner")
        }
        defer { tsz_image_scanner_destroy(scanner) }
        configure(scanner, reading: pass.types)

        guard let zimage = tsz_image_create() else {
            throw .readerUnavailable(detail: "zbar could not make an image")
        }
        defer { tsz_image_destroy(zimage) }
        tsz_image_set_format(zimage, tsz_format_y800())
        tsz_image_set_size(zimage, UInt32(image.width), UInt32(image.height))

        return try image.pixels.withUnsafeBufferPointer { (buffer) throws(PhotoCodeError) -> [Symbol] in
            // zbar reads the buffer during the scan only; no cleanup handler, as Swift owns it.
            tsz_image_set_data(zimage, buffer.baseAddress, UInt(buffer.count))
            defer { tsz_image_set_data(zimage, nil, 0) }
            if tsz_scan_image(scanner, zimage) < 0 {
                throw .photo(.damaged(detail: "zbar could not scan the decoded image"))
            }
            var symbols: [Symbol] = []
            var next = tsz_image_first_symbol(zimage)
            while let symbol = next, symbols.count < maximumSymbols {
                symbols.append(read(symbol))
                next = tsz_symbol_next(symbol)
            }
            return symbols
        }
    }

    private static func configure(_ scanner: OpaquePointer, reading types: [zbar_symbol_type_t]) {
        for type in allTypes {
            tsz_image_scanner_set_config(scanner, type, ZBAR_CFG_ENABLE, types.contains(type) ? 1 : 0)
        }
        // EAN/UPC keep their check digit (zbar's default, said here because the data depends on it).
        for type in [ZBAR_EAN13, ZBAR_EAN8, ZBAR_UPCA, ZBAR_UPCE, ZBAR_ISBN13] {
            tsz_image_scanner_set_config(scanner, type, ZBAR_CFG_EMIT_CHECK, 1)
        }
        // Code 39 has no check character to rule out a texture read as one or two characters.
        tsz_image_scanner_set_config(scanner, ZBAR_CODE39, ZBAR_CFG_MIN_LEN, 4)
        // Every row and every column: the code may lie either way in the photo.
        tsz_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_X_DENSITY, 1)
        tsz_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_Y_DENSITY, 1)
        tsz_image_scanner_set_config(scanner, ZBAR_NONE, ZBAR_CFG_POSITION, 1)
    }

    private static func read(_ symbol: OpaquePointer) -> Symbol {
        let type = tsz_symbol_get_type(symbol)
        let name = tsz_get_symbol_name(type).map { String(cString: $0) } ?? "UNKNOWN"
        let length = Int(tsz_symbol_get_data_length(symbol))
        let text: String
        if let data = tsz_symbol_get_data(symbol), length > 0 {
            text = data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
                String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
            }
        } else {
            text = ""
        }
        let modifiers = tsz_symbol_get_modifiers(symbol)
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for index in 0..<tsz_symbol_get_loc_size(symbol) {
            let x = Int(tsz_symbol_get_loc_x(symbol, index)), y = Int(tsz_symbol_get_loc_y(symbol, index))
            guard x >= 0, y >= 0 else { continue }
            minX = min(minX, x)
            maxX = max(maxX, x)
            minY = min(minY, y)
            maxY = max(maxY, y)
        }
        if minX > maxX { (minX, minY, maxX, maxY) = (0, 0, 0, 0) }
        return Symbol(
            type: type, name: name, text: text,
            isGS1: modifiers & (1 << ZBAR_MOD_GS1.rawValue) != 0,
            isAIMFlagged: modifiers & (1 << ZBAR_MOD_AIM.rawValue) != 0,
            minX: minX, minY: minY, maxX: maxX, maxY: maxY,
            orientation: orientations[tsz_symbol_get_orientation(symbol).rawValue] ?? .unknown
        )
    }

    /// zbar's orientations by their raw values; any other is `.unknown`.
    private static let orientations: [zbar_orientation_t.RawValue: CodeOrientation] = [
        ZBAR_ORIENT_UP.rawValue: .up, ZBAR_ORIENT_RIGHT.rawValue: .right, ZBAR_ORIENT_DOWN.rawValue: .down, ZBAR_ORIENT_LEFT.rawValue: .left,
    ]
}
