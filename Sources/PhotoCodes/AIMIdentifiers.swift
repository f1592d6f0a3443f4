import CImageStack

/// The AIM symbology identifier (ISO/IEC 15424) a scanner would put before each code zbar
/// reads. zbar 0.23 reports only the symbology and two flags: GS1 (FNC1 in first position, or
/// DataBar) and AIM (FNC1 in second position); the modifier character follows from those.
enum AIMIdentifiers {
    struct Entry {
        let plain: String
        /// With zbar's GS1 flag; nil when the symbology has no GS1 form of its own.
        let gs1: String?
        /// With zbar's AIM flag (FNC1 after the first character or digit pair).
        let aimFlagged: String?
    }

    /// Per symbology. zbar validates no optional check character (Code 39, I2/5) and reports no
    /// ECI for QR, hence modifier 0 / 1.
    static let table: [UInt32: Entry] = [
        ZBAR_EAN13.rawValue: Entry(plain: "]E0", gs1: nil, aimFlagged: nil),
        ZBAR_UPCA.rawValue: Entry(plain: "]E0", gs1: nil, aimFlagged: nil),
        ZBAR_UPCE.rawValue: Entry(plain: "]E0", gs1: nil, aimFlagged: nil),
        ZBAR_ISBN13.rawValue: Entry(plain: "]E0", gs1: nil, aimFlagged: nil),
        ZBAR_EAN8.rawValue: Entry(plain: "]E4", gs1: nil, aimFlagged: nil),
        ZBAR_CODE128.rawValue: Entry(plain: "]C0", gs1: "]C1", aimFlagged: "]C2"),
        ZBAR_CODE39.rawValue: Entry(plain: "]A0", gs1: nil, aimFlagged: nil),
        ZBAR_I25.rawValue: Entry(plain: "]I0", gs1: nil, aimFlagged: nil),
        ZBAR_DATABAR.rawValue: Entry(plain: "]e0", gs1: "]e0", aimFlagged: nil),
        ZBAR_DATABAR_EXP.rawValue: Entry(plain: "]e0", gs1: "]e0", aimFlagged: nil),
        ZBAR_QRCODE.rawValue: Entry(plain: "]Q1", gs1: "]Q3", aimFlagged: "]Q5"),
    ]

    static func identifier(for type: zbar_symbol_type_t, gs1: Bool, aimFlagged: Bool) -> String? {
        guard let entry = table[type.rawValue] else { return nil }
        if gs1, let identifier = entry.gs1 { return identifier }
        if aimFlagged, let identifier = entry.aimFlagged { return identifier }
        return entry.plain
    }
}
