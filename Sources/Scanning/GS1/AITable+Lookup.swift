extension AITable {
    /// Every AI, ranges expanded, keyed by its digits.
    public static let definitions: [String: AIDefinition] = {
        var byAI: [String: AIDefinition] = [:]
        for entry in entries {
            for definition in entry.definitions {
                byAI[definition.ai] = definition
            }
        }
        return byAI
    }()

    public static func definition(for ai: String) -> AIDefinition? {
        definitions[ai]
    }

    /// How many digits the AIs starting with these two digits have (2, 3 or 4), from the table;
    /// `nil` when no AI starts with them. GS1 keeps AIs prefix-free, so one length per prefix.
    public static func aiLength(forPrefix prefix: String) -> Int? {
        aiLengthsByPrefix[prefix]
    }

    /// The value length fixed for AIs starting with these two digits (GS1 General Specifications
    /// figure 7.8.5-2, "element strings with predefined length"): no separator follows them.
    /// Includes prefixes not yet allocated (04, 14, 18, 19), as the specification does.
    public static func predefinedValueLength(forPrefixOf ai: String) -> Int? {
        predefinedLengths[String(ai.prefix(2))]
    }

    /// The AI at the start of raw element-string data, if the table knows one.
    static func definition(atStartOf text: Substring) -> AIDefinition? {
        guard text.count >= 2 else { return nil }
        let prefix = String(text.prefix(2))
        guard let length = aiLength(forPrefix: prefix), text.count >= length else { return nil }
        return definitions[String(text.prefix(length))]
    }

    private static let aiLengthsByPrefix: [String: Int] = {
        var lengths: [String: Int] = [:]
        for ai in definitions.keys {
            lengths[String(ai.prefix(2))] = ai.count
        }
        return lengths
    }()

    private static let predefinedLengths: [String: Int] = {
        var lengths = ["00": 18, "01": 14, "02": 14, "03": 14, "04": 16, "20": 2, "41": 13]
        for prefix in 11...19 { lengths[String(prefix)] = 6 }
        for prefix in 31...36 { lengths[String(prefix)] = 6 }
        return lengths
    }()
}
