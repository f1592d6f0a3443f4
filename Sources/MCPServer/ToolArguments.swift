import MCP

/// A tool's arguments as an agent sent them, read with a bound on each: a wrong one is a
/// `ToolRefusal` whose sentence names the argument, never a crash.
struct ToolArguments {
    let tool: String
    let values: [String: Value]

    init(tool: String, _ values: [String: Value]?) {
        self.tool = tool
        self.values = values ?? [:]
    }

    /// A string of at most `maximumCharacters`; nil when absent and not `required`.
    func string(_ name: String, maximumCharacters: Int, required: Bool = false) throws(ToolRefusal) -> String? {
        guard let value = values[name], !value.isNull else {
            if required { throw ToolRefusal("\(name) is required: a string.") }
            return nil
        }
        guard let text = value.stringValue else { throw ToolRefusal("\(name) must be a string.") }
        guard text.count <= maximumCharacters else {
            throw ToolRefusal("\(name) can have at most \(maximumCharacters) characters (it has \(text.count)).")
        }
        return text
    }

    /// A whole number within `range`; `fallback` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, fallback: Int? = nil) throws(ToolRefusal) -> Int {
        guard let value = values[name], !value.isNull else {
            if let fallback { return fallback }
            throw ToolRefusal("\(name) is required: a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        // A whole number may come as a double (`3.0`), if it is one exactly.
        let number = value.intValue ?? value.doubleValue.flatMap { $0.isFinite && $0.rounded() == $0 && abs($0) < 1e15 ? Int($0) : nil }
        guard let number, range.contains(number) else {
            throw ToolRefusal("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }

    /// The ids a request_id or record_id may be.
    static let idRange = 1...Int(Int32.max) * 1024

    /// A number of seconds within `range`; `fallback` when absent.
    func seconds(_ name: String, in range: ClosedRange<Double>, fallback: Double) throws(ToolRefusal) -> Double {
        guard let value = values[name], !value.isNull else { return fallback }
        let number = value.doubleValue ?? value.intValue.map(Double.init)
        guard let number, number.isFinite, range.contains(number) else {
            throw ToolRefusal("\(name) must be a number of seconds from \(Int(range.lowerBound)) to \(Int(range.upperBound)).")
        }
        return number
    }

    /// One of `choices`; `fallback` when absent.
    func choice(_ name: String, _ choices: [String], fallback: String? = nil) throws(ToolRefusal) -> String {
        guard let value = values[name], !value.isNull else {
            if let fallback { return fallback }
            throw ToolRefusal("\(name) is required: one of \(choices.joined(separator: ", ")).")
        }
        guard let text = value.stringValue, choices.contains(text) else {
            throw ToolRefusal("\(name) must be one of \(choices.joined(separator: ", ")).")
        }
        return text
    }

    /// Names the agent sent that the tool does not take, refused so a typo is not silently ignored.
    func refuseUnknown(_ known: Set<String>) throws(ToolRefusal) {
        let unknown = values.keys.filter { !known.contains($0) }.sorted()
        guard unknown.isEmpty else {
            let names = unknown.prefix(3).map { String($0.prefix(40)) }.joined(separator: ", ")
            throw ToolRefusal("\(tool) takes no argument named \(names).")
        }
    }
}

/// A tool call answered with `isError` and one sentence (the argument it names, what is wrong).
struct ToolRefusal: Error, Equatable {
    let sentence: String

    init(_ sentence: String) {
        self.sentence = sentence
    }
}
