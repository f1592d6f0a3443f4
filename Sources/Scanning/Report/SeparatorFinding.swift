/// The GS1 separator (FNC1) a test scan showed.
public enum SeparatorFinding: Equatable, Hashable, Sendable {
    /// Byte 0x1D, as GS1 specifies.
    case groupSeparator
    /// A printable character standing in for it; `configured` when Settings already names it.
    case standIn(Character, configured: Bool)
    /// None in this scan.
    case none

    /// Characters scanners are commonly set to send instead of 0x1D. None is in GS1 character
    /// set 82, so none can be part of a value.
    public static let likelyStandIns: [Character] = ["~", "|", "^", "#", "@", "{", "}", "[", "]", "\\", "`", "$"]

    /// Looks at a scan's text (AIM prefix included or not).
    static func find(in text: String, options: ScanOptions) -> SeparatorFinding {
        if text.contains(ElementStringParser.groupSeparator) { return .groupSeparator }
        if let standIn = options.separatorStandIn, text.contains(standIn) { return .standIn(standIn, configured: true) }
        for candidate in likelyStandIns where text.contains(candidate) {
            var trial = options
            trial.separatorStandIn = candidate
            trial.detectsLayout = false
            let result = Scan.read(text, options: trial)
            if result.isRecognised && result.gs1Form == .elementString {
                return .standIn(candidate, configured: false)
            }
        }
        return .none
    }
}
