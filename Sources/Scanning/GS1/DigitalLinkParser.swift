import Foundation

/// Reads GS1 Digital Link URIs: `https://id.gs1.org/01/09506000134352/10/ABC123?17=201225`.
///
/// Any host and any path before the AIs (`https://brand.example/shop/01/…`). The path is read
/// from the right in AI/value pairs up to the first primary key (`01`, `00`, `414`, …), as the
/// GS1 Digital Link standard says; numeric query keys are AIs, other keys are ignored. Values are
/// percent-decoded; `+` is a plus sign in the path and a space in the query. A GTIN-8, -12 or -13
/// given as key `01` is padded to 14 digits, as older Digital Link URIs allowed.
enum DigitalLinkParser {
    /// Whether the text is an http(s) address at all.
    static func isWebAddress(_ text: Substring) -> Bool {
        let lowered = text.prefix(8).lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }

    /// The elements of a Digital Link URI, or `nil` when the address has no AI path ending in a
    /// primary key (then it is an ordinary web address).
    static func parse(_ text: Substring, today: CalendarDate) -> GS1Parse? {
        guard isWebAddress(text), let schemeEnd = text.range(of: "://") else { return nil }
        let afterScheme = text[schemeEnd.upperBound...]
        let withoutFragment = afterScheme.prefix(while: { $0 != "#" })
        let pathAndAuthority = withoutFragment.prefix(while: { $0 != "?" })
        let query = withoutFragment.dropFirst(pathAndAuthority.count + 1)
        guard let slash = pathAndAuthority.firstIndex(of: "/"), slash != pathAndAuthority.startIndex else { return nil }
        let segments = pathAndAuthority[pathAndAuthority.index(after: slash)...]
            .split(separator: "/", omittingEmptySubsequences: false)

        guard let pathPairs = keyPath(segments) else { return nil }

        var collector = ElementCollector()
        func failed(_ error: GS1Error) -> GS1Parse { GS1Parse(elements: collector.elements, error: error) }

        for (definition, encoded) in pathPairs {
            guard let decoded = encoded.removingPercentEncoding else {
                return failed(.badDigitalLinkEncoding("the value after /\(definition.ai)/ has a broken % escape"))
            }
            let value =
                definition.ai == "01" && [8, 12, 13].contains(decoded.count) && decoded.allSatisfy(\.isASCIIDigit)
                ? decoded.leftPadded(to: 14)
                : decoded
            if let error = collector.add(definition, value: value, today: today) { return failed(error) }
        }

        for parameter in query.split(separator: "&") {
            let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = parts.first, !key.isEmpty, key.allSatisfy(\.isASCIIDigit) else { continue }
            guard let definition = AITable.definition(for: String(key)) else { return failed(.unknownAI(String(key))) }
            let encoded = parts.count > 1 ? parts[1].replacingOccurrences(of: "+", with: " ") : ""
            guard let value = encoded.removingPercentEncoding else {
                return failed(.badDigitalLinkEncoding("the value of \(key)= has a broken % escape"))
            }
            if let error = collector.add(definition, value: value, today: today) { return failed(error) }
        }
        return GS1Parse(elements: collector.elements)
    }

    /// The AI/value pairs at the end of the path, up to and including the rightmost primary key;
    /// `nil` when the path does not end in such pairs.
    private static func keyPath(_ segments: [Substring]) -> [(AIDefinition, String)]? {
        var pairs: [(AIDefinition, String)] = []
        var end = segments.count
        while end >= 2 {
            let aiSegment = segments[end - 2]
            guard aiSegment.allSatisfy(\.isASCIIDigit), let definition = AITable.definition(for: String(aiSegment)) else {
                return nil
            }
            pairs.insert((definition, String(segments[end - 1])), at: 0)
            end -= 2
            if definition.isDigitalLinkKey { return pairs }
        }
        return nil
    }
}
