/// The kind of code a scan was: from its AIM symbology identifier, or inferred from the content.
public enum ScanSymbology: String, CaseIterable, Codable, Equatable, Hashable, Sendable {
    // MARK: - GTIN family and the numbers printed as EAN-13
    case ean13, ean8, upcA, upcE, gtin14, itf14
    case isbn10, isbn13, issn, issn13

    // MARK: - GS1 data
    /// GS1 AIs with no AIM identifier saying which barcode carried them.
    case gs1ElementString
    /// A GS1 Digital Link URI with no AIM identifier saying which barcode carried it.
    case gs1DigitalLink
    case gs1128 = "gs1_128"
    case gs1DataBar, gs1DataMatrix, gs1QR, gs1DotCode

    // MARK: - Other barcodes named by their AIM identifier
    case code128, code39, code93, code11, codabar, interleaved2of5, standard2of5, msi, plessey, telepen
    case code16K, code49, codablock, codeOne, channelCode, anker
    case pdf417, dataMatrix, qr, aztec, maxiCode, dotCode, hanXin
    case otherBarcode, nonBarcode

    /// Anything else typed or scanned.
    case freeText

    public var title: String {
        switch self {
        case .ean13: "EAN-13"
        case .ean8: "EAN-8"
        case .upcA: "UPC-A"
        case .upcE: "UPC-E"
        case .gtin14: "GTIN-14"
        case .itf14: "ITF-14"
        case .isbn10: "ISBN-10"
        case .isbn13: "ISBN-13"
        case .issn: "ISSN"
        case .issn13: "ISSN (EAN-13)"
        case .gs1ElementString: "GS1"
        case .gs1DigitalLink: "GS1 Digital Link"
        case .gs1128: "GS1-128"
        case .gs1DataBar: "GS1 DataBar"
        case .gs1DataMatrix: "GS1 DataMatrix"
        case .gs1QR: "GS1 QR Code"
        case .gs1DotCode: "GS1 DotCode"
        case .code128: "Code 128"
        case .code39: "Code 39"
        case .code93: "Code 93"
        case .code11: "Code 11"
        case .codabar: "Codabar"
        case .interleaved2of5: "Interleaved 2 of 5"
        case .standard2of5: "Standard 2 of 5"
        case .msi: "MSI"
        case .plessey: "Plessey"
        case .telepen: "Telepen"
        case .code16K: "Code 16K"
        case .code49: "Code 49"
        case .codablock: "Codablock"
        case .codeOne: "Code One"
        case .channelCode: "Channel Code"
        case .anker: "Anker"
        case .pdf417: "PDF417"
        case .dataMatrix: "Data Matrix"
        case .qr: "QR Code"
        case .aztec: "Aztec"
        case .maxiCode: "MaxiCode"
        case .dotCode: "DotCode"
        case .hanXin: "Han Xin"
        case .otherBarcode: "Barcode"
        case .nonBarcode: "Non-barcode data"
        case .freeText: "Text"
        }
    }

    /// GS1 carriers and the GS1 forms: the content is AIs.
    public var carriesGS1: Bool {
        switch self {
        case .gs1ElementString, .gs1DigitalLink, .gs1128, .gs1DataBar, .gs1DataMatrix, .gs1QR, .gs1DotCode: true
        default: false
        }
    }
}
