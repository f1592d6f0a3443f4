/// One AI and its value, as read from a scan.
public struct GS1Element: Equatable, Hashable, Sendable {
    /// The AI's digits, `17`.
    public var ai: String
    /// A short title, `Expiry`.
    public var title: String
    /// The value exactly as it was in the data (after Digital Link percent-decoding), `201225`.
    public var raw: String
    /// The value interpreted, `.date(2020-12-25)`.
    public var value: GS1Value

    public init(ai: String, title: String, raw: String, value: GS1Value) {
        self.ai = ai
        self.title = title
        self.raw = raw
        self.value = value
    }
}
