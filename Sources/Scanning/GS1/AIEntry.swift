/// A row of `AITable`: one AI, or a run of AIs sharing a format (`3100` through `3105`).
struct AIEntry: Sendable {
    let first: String
    let last: String
    let title: String
    let components: [AIComponent]
    let meaning: AIMeaning
    let isDigitalLinkKey: Bool

    init(_ ai: String, through last: String? = nil, _ title: String, _ components: [AIComponent], _ meaning: AIMeaning, key: Bool = false) {
        self.first = ai
        self.last = last ?? ai
        self.title = title
        self.components = components
        self.meaning = meaning
        self.isDigitalLinkKey = key
    }

    /// Each AI of the run as its own definition.
    var definitions: [AIDefinition] {
        guard let low = Int(first), let high = Int(last), low <= high else { return [] }
        return (low...high).map { number in
            let ai = String(number).leftPadded(to: first.count)
            return AIDefinition(ai: ai, title: title, components: components, meaning: meaning, isDigitalLinkKey: isDigitalLinkKey)
        }
    }
}
