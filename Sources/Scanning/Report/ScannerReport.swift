import Foundation

/// What `tabshell doctor --scanner` tells about a scanner from one test scan: who typed it, how
/// fast, the suffix, the AIM prefix, the GS1 separator, the keyboard layout and what it read.
public struct ScannerReport: Equatable, Sendable {
    public var source: InputSource
    public var suffix: ScanSuffix
    public var aim: AIMIdentifier?
    public var separator: SeparatorFinding
    /// `nil` when no layout mismatch showed in this scan.
    public var layoutMismatch: LayoutMismatch?
    /// Keys per second from the first key to the last (suffix included); `nil` for a single key
    /// or keys that all came at once.
    public var charactersPerSecond: Double?
    public var meanGap: Duration?
    public var scan: ScanResult

    /// Analyses the keystrokes of one test scan, from its first key through its Enter/Tab.
    public init(keystrokes: [Keystroke], options: ScanOptions = ScanOptions(), timing: ScannerTiming = .standard) {
        let suffixKey = keystrokes.last.map { ScanSuffix($0.character) } ?? ScanSuffix.none
        let text = String(keystrokes.dropLast(suffixKey == .none ? 0 : 1).map(\.character))
        source = timing.source(of: keystrokes)
        suffix = suffixKey
        scan = Scan.parse(text, options: options)
        aim = scan.aim
        separator = SeparatorFinding.find(in: options.layout?.restore(text) ?? text, options: options)
        layoutMismatch = scan.layoutMismatch
        meanGap = ScannerTiming.meanGap(of: keystrokes)
        if let first = keystrokes.first, let last = keystrokes.last, keystrokes.count > 1, last.time > first.time {
            let seconds = Self.seconds(last.time - first.time)
            charactersPerSecond = Double(keystrokes.count - 1) / seconds
        } else {
            charactersPerSecond = nil
        }
    }

    /// The report, one finding a line, each with what to change when something is off.
    public var lines: [String] {
        [
            "Typed by:   " + sourceLine,
            "Speed:      " + speedLine,
            "Suffix:     " + suffixLine,
            "AIM prefix: " + aimLine,
            "Separator:  " + separatorLine,
            "Layout:     " + (layoutMismatch?.message ?? "no mismatch seen"),
            "Read:       " + readLine,
        ]
    }

    public var text: String { lines.joined(separator: "\n") }

    private var sourceLine: String {
        let gap = meanGap.map { " (\(Self.milliseconds($0)) ms between keys on average)" } ?? ""
        switch source {
        case .scanner: return "scanner" + gap
        case .person: return "a person, by its timing" + gap + " — scan the test label rather than typing it"
        }
    }

    private var speedLine: String {
        guard let charactersPerSecond else { return "all keys at once (sent in one burst)" }
        return "\(Int(charactersPerSecond.rounded())) characters per second"
    }

    private var suffixLine: String {
        suffix == .none ? "none — set the scanner to end each scan with Enter" : suffix.title
    }

    private var aimLine: String {
        guard let aim else { return "none — turn on AIM identifiers in the scanner's settings so GS1 barcodes are told apart" }
        return "\(aim.text) (\(aim.symbology.title))"
    }

    private var separatorLine: String {
        switch separator {
        case .groupSeparator: return "0x1D (GS), as GS1 specifies"
        case let .standIn(character, configured: true): return "“\(character)” standing in for 0x1D, as Settings says"
        case let .standIn(character, configured: false):
            return "“\(character)” standing in for 0x1D — set Settings › GS1 separator to \(character)"
        case .none:
            return scan.gs1Form == nil
                ? "none (not GS1 data; scan a GS1-128 or GS1 DataMatrix label with a lot number to check)"
                : "none seen in this scan"
        }
    }

    private var readLine: String {
        if let error = scan.error { return "not read: " + error.message }
        return "\(scan.symbology.title) — \(scan.description)"
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let value = seconds(duration) * 1000
        return value < 10 ? String(format: "%.1f", value) : String(Int(value.rounded()))
    }
}
