/// A barcode zbar read in a photo.
public struct FoundCode: Hashable, Sendable {
    /// zbar's name for the symbology: "EAN-13", "UPC-A", "ISBN-13", "CODE-128", "CODE-39",
    /// "I2/5", "DataBar", "DataBar-Exp", "QR-Code", …
    public var symbology: String
    /// The data as zbar gives it. GS1 data keeps its separators as 0x1D (a leading FNC1 is
    /// not data: it is `isGS1`); EAN/UPC include their check digit.
    public var text: String
    /// The AIM symbology identifier (ISO/IEC 15424) a scanner would send before the data, such
    /// as "]E0" or "]C1". zbar does not produce one: it is worked out from the symbology and
    /// zbar's GS1 and AIM flags (see `AIMIdentifiers`).
    public var aimIdentifier: String?
    /// The code says it carries GS1 element strings (FNC1 in first position, or DataBar).
    public var isGS1: Bool
    /// Where the code was read, in the photo's pixels as shown (upright). For a linear code it
    /// spans the scan lines that read it, so it can be thinner than the printed bars.
    public var box: CodeBox
    public var orientation: CodeOrientation

    /// What a scanner set to send AIM identifiers would type for this code: the identifier,
    /// then the data. `Scanning.Scan.parse` reads it like any scan.
    public var scannerInput: String { (aimIdentifier ?? "") + text }
}
