/// How `Scan.parse` reads input; the app builds it from Settings.
public struct ScanOptions: Equatable, Hashable, Sendable {
    /// A character the scanner is set to send instead of the GS1 separator (FNC1, byte 0x1D),
    /// for scanners or terminals that cannot pass 0x1D; `nil` when it sends 0x1D (always read).
    public var separatorStandIn: Character?
    /// The day the two-digit years of GS1 dates are read against (GS1's 49-years-back,
    /// 50-years-ahead rule). Injected so tests do not depend on the clock.
    public var today: CalendarDate
    /// Whether text that is no code is accepted as free text, or refused.
    public var allowFreeText: Bool
    /// Input longer than this is refused even as free text.
    public var maximumLength: Int
    /// Settings › Scanner layout: the keyboard mismatch to undo before reading, `nil` for none.
    public var layout: LayoutTranslation?
    /// Whether to look for a keyboard-layout mismatch when a scan does not read.
    public var detectsLayout: Bool

    public static let defaultMaximumLength = 512

    public init(
        separatorStandIn: Character? = nil,
        today: CalendarDate = .today(),
        allowFreeText: Bool = true,
        maximumLength: Int = ScanOptions.defaultMaximumLength,
        layout: LayoutTranslation? = nil,
        detectsLayout: Bool = true
    ) {
        self.separatorStandIn = separatorStandIn
        self.today = today
        self.allowFreeText = allowFreeText
        self.maximumLength = maximumLength
        self.layout = layout
        self.detectsLayout = detectsLayout
    }

    /// 0x1D and the stand-in, if any.
    var separators: Set<Character> {
        var set: Set<Character> = [ElementStringParser.groupSeparator]
        if let separatorStandIn { set.insert(separatorStandIn) }
        return set
    }
}
