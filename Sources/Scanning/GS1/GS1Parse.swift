/// What a GS1 parser returns: the elements read before any error, and the error.
struct GS1Parse: Equatable, Sendable {
    var elements: [GS1Element]
    var error: GS1Error?
}
