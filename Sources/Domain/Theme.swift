import Foundation

/// The colour theme asked for: in config.toml (`theme = "…"`) and in Settings.
/// `auto` asks the terminal for its background colour (OSC 11) and picks dark or light.
public enum Theme: String, CaseIterable, Codable, Sendable {
    case auto
    case dark
    case light
    case highContrast = "high-contrast"

    /// "Auto", "Dark", "Light": the raw value with a capital; "High contrast" in words.
    public var title: String { self == .highContrast ? "High contrast" : rawValue.capitalized }

    /// The theme drawn: `auto` is light on a light background and dark on a dark one or when the
    /// terminal did not say (the answer may never come, and dark is what terminals mostly are).
    public func resolved(background: BackgroundColor?) -> ResolvedTheme {
        switch self {
        case .dark: .dark
        case .light: .light
        case .highContrast: .highContrast
        case .auto: background?.isLight == true ? .light : .dark
        }
    }
}

/// A theme as drawn: the three palettes (TerminalScreen's `TerminalStyle` holds their colours).
public enum ResolvedTheme: String, CaseIterable, Sendable {
    case dark, light, highContrast
}

/// The terminal's background colour, as its answer to OSC 11 gave it: each channel 0…1.
public struct BackgroundColor: Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = min(max(red, 0), 1)
        self.green = min(max(green, 0), 1)
        self.blue = min(max(blue, 0), 1)
    }

    /// WCAG 2's relative luminance (sRGB channels linearised).
    public var luminance: Double {
        func linear(_ channel: Double) -> Double {
            channel <= 0.04045 ? channel / 12.92 : pow((channel + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// Black text would have more contrast on it than white text: luminance above ≈ 0.179,
    /// where (L + 0.05) / 0.05 = 1.05 / (L + 0.05).
    public var isLight: Bool { (luminance + 0.05) * (luminance + 0.05) > 0.05 * 1.05 }

    /// The background `COLORFGBG` names (rxvt, Konsole and others set it: "fg;bg", or
    /// "fg;default;bg", numbers of the 16-colour palette): 0–6 and 8 are dark, 7 and 9–15 light.
    /// Nil when it is missing, says "default", or holds anything else — then the terminal is asked.
    public init?(colorFGBG value: String?) {
        guard let value, value.utf8.count <= 16, let last = value.split(separator: ";").last,
            last.allSatisfy(\.isASCII), let number = Int(last), (0...15).contains(number)
        else { return nil }
        let level: Double = number == 7 || number >= 9 ? 1 : 0
        self.init(red: level, green: level, blue: level)
    }

    /// Reads an X11 colour spec as terminals answer OSC 11: `rgb:R/G/B` with 1 to 4 hex digits
    /// per channel (each scaled by its own width: `f` and `ffff` are both full). Anything else,
    /// or longer, is nil.
    public init?(x11 spec: Substring) {
        guard spec.utf8.count <= 20, spec.hasPrefix("rgb:") else { return nil }
        let channels = spec.dropFirst(4).split(separator: "/", omittingEmptySubsequences: false)
        guard channels.count == 3 else { return nil }
        var values: [Double] = []
        for channel in channels {
            guard (1...4).contains(channel.count), channel.allSatisfy(\.isHexDigit),
                let value = UInt32(channel, radix: 16)
            else { return nil }
            let full = Double((1 << (4 * channel.count)) - 1)
            values.append(Double(value) / full)
        }
        self.init(red: values[0], green: values[1], blue: values[2])
    }
}
