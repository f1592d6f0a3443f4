import Foundation

/// The Prometheus text exposition of a registry, with a `# HELP` line for every metric family.
/// swift-metrics carries no help text, and swift-prometheus refuses two help texts for one name,
/// so the help of the metrics counted through swift-metrics is added here from one table.
struct MetricsExposition: Sendable {
    let help: [String: String]

    /// `text` (what `PrometheusCollectorRegistry.emitToString()` wrote) with `# HELP name …` put
    /// before each `# TYPE name …` that has none.
    func withHelp(_ text: String) -> String {
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE ") {
                let name = line.dropFirst("# TYPE ".count).prefix { $0 != " " }
                let previous = lines.last ?? ""
                if !previous.hasPrefix("# HELP \(name) "), let sentence = help[String(name)] {
                    lines.append(Substring("# HELP \(name) \(Self.escaped(sentence))"))
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The exposition format's escapes for help text: backslash and line feed.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
