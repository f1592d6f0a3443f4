/// How GS1 data was written in a scan.
public enum GS1Form: String, Equatable, Hashable, Sendable, CaseIterable {
    /// AIs and values run together, variable-length values ended by FNC1 (sent as byte 0x1D or a
    /// stand-in character): `0109506000134352` `17201225` `10ABC123`.
    case elementString
    /// The human-readable form printed under barcodes: `(01)09506000134352(17)201225(10)ABC123`.
    case bracketed
    /// A GS1 Digital Link URI: `https://id.gs1.org/01/09506000134352/10/ABC123?17=201225`.
    case digitalLink

    public var title: String {
        switch self {
        case .elementString: "GS1 element string"
        case .bracketed: "GS1 human-readable"
        case .digitalLink: "GS1 Digital Link"
        }
    }
}
