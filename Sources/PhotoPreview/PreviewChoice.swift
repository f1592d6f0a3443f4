/// The method chosen for this terminal and, for Settings and `doctor`, one sentence saying why.
public struct PreviewChoice: Hashable, Sendable {
    public var method: PreviewMethod
    public var reason: String

    public init(method: PreviewMethod, reason: String) {
        self.method = method
        self.reason = reason
    }
}
