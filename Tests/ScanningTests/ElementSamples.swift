import Foundation
import Scanning
import TestSupport

/// Builds valid GS1 elements from a seed, for the property tests: each AI group the issue names,
/// values of every allowed length and character.
struct ElementSamples {
    /// TestSupport's SplitMix64 drawing bounded numbers, so a failing seed reproduces.
    struct Seeded {
        var random: SplitMix64

        init(state: UInt64) {
            random = SplitMix64(seed: state)
        }

        mutating func next(_ upperBound: Int) -> Int {
            Int(random.next() % UInt64(max(upperBound, 1)))
        }

        mutating func digits(_ count: Int) -> [Int] { (0..<count).map { _ in next(10) } }

        mutating func text(_ length: ClosedRange<Int>) -> String {
            let count = length.lowerBound + next(length.count)
            return String((0..<count).map { _ in ElementSamples.cset82[next(ElementSamples.cset82.count)] })
        }
    }

    static let cset82 = Array("!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")

    static let measureAIs: [String] = (310...369).filter { ![317, 318, 319, 338, 339, 358, 359].contains($0) }
        .flatMap { prefix in (0...5).map { "\(prefix)\($0)" } }

    /// AIs the property tests draw from: the issue's list, a measure and an internal AI.
    static let ais = [
        "00", "01", "02", "10", "11", "13", "15", "16", "17", "21", "30", "37",
        "400", "401", "403", "410", "411", "412", "413", "414", "415", "8200", "99", "measure",
    ]

    /// A valid raw value for the AI.
    static func value(for ai: String, _ random: inout Seeded) -> (ai: String, value: String) {
        switch ai {
        case "00": return (ai, withCheckDigit(random.digits(17)))
        case "01", "02": return (ai, withCheckDigit(random.digits(13)))
        case "410", "411", "412", "413", "414", "415": return (ai, withCheckDigit(random.digits(12)))
        case "11", "13", "15", "16", "17":
            let year = random.next(100), month = 1 + random.next(12), day = random.next(29)
            return (ai, [year, month, day].map { String($0).leftPad2 }.joined())
        case "30", "37": return (ai, random.digits(1 + random.next(8)).map(String.init).joined())
        case "10", "21": return (ai, random.text(1...20))
        case "400", "401", "403": return (ai, random.text(1...30))
        case "8200": return (ai, random.text(1...70))
        case "99": return (ai, random.text(1...90))
        default: return (measureAIs[random.next(measureAIs.count)], random.digits(6).map(String.init).joined())
        }
    }

    /// Distinct AIs with values, from one seed.
    static func elements(seed: UInt64, count: Int) -> [(ai: String, value: String)] {
        var random = Seeded(state: seed)
        var chosen: [(ai: String, value: String)] = []
        for _ in 0..<count {
            let sample = value(for: ais[random.next(ais.count)], &random)
            if !chosen.contains(where: { $0.ai == sample.ai }) { chosen.append(sample) }
        }
        return chosen
    }

    private static func withCheckDigit(_ payload: [Int]) -> String {
        (payload + [CheckDigit.gs1(of: payload)]).map(String.init).joined()
    }
}

// MARK: - The three forms, built independently of the parser

enum GS1Forms {
    /// Raw: `]C1`, AI and value, 0x1D after every value of variable length but the last.
    static func raw(_ elements: [(ai: String, value: String)], separator: String = gs) -> String {
        var text = "]C1"
        for (index, element) in elements.enumerated() {
            text += element.ai + element.value
            let isLast = index == elements.count - 1
            if !isLast && AITable.predefinedValueLength(forPrefixOf: element.ai) == nil { text += separator }
        }
        return text
    }

    /// Bracketed: `(ai)value`, a `(` in a value written `\(`.
    static func bracketed(_ elements: [(ai: String, value: String)]) -> String {
        elements.map { "(\($0.ai))" + $0.value.replacingOccurrences(of: "(", with: "\\(") }.joined()
    }

    /// Digital Link: the key in the path, the rest as query parameters, values percent-encoded.
    static func digitalLink(key: (ai: String, value: String), _ others: [(ai: String, value: String)]) -> String {
        let path = "https://id.gs1.org/\(key.ai)/\(percentEncoded(key.value))"
        guard !others.isEmpty else { return path }
        return path + "?" + others.map { "\($0.ai)=\(percentEncoded($0.value))" }.joined(separator: "&")
    }

    static func percentEncoded(_ value: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return value.map { character in
            unreserved.contains(character)
                ? String(character)
                : character.utf8.map { "%" + String($0, radix: 16, uppercase: true).leftPad2 }.joined()
        }.joined()
    }
}

extension String {
    var leftPad2: String { count >= 2 ? self : "0" + self }
}
