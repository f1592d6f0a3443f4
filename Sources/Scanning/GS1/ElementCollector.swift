/// Gathers parsed elements in order and refuses an AI given twice with different values
/// (GS1 General Specifications 4.14: a repeat is only allowed when it says the same thing).
struct ElementCollector {
    private(set) var elements: [GS1Element] = []

    /// Adds the element, or drops it when an identical one is already there.
    mutating func add(_ element: GS1Element) -> GS1Error? {
        if let earlier = elements.first(where: { $0.ai == element.ai }) {
            return earlier.raw == element.raw ? nil : .conflictingValues(ai: element.ai)
        }
        elements.append(element)
        return nil
    }

    /// Validates `value` as the element `definition` names and adds it; the error when the value
    /// is not valid for that AI or conflicts with an earlier one.
    mutating func add(_ definition: AIDefinition, value: String, today: CalendarDate) -> GS1Error? {
        switch ElementValidator.element(definition, value: value, today: today) {
        case let .success(element): add(element)
        case let .failure(error): error
        }
    }
}
