/// A keyboard-layout problem noticed in a scan, with the sentence that tells the user the fix.
public enum LayoutMismatch: Equatable, Hashable, Sendable {
    /// The scan reads as a code once this translation is undone; `restored` is that reading.
    case detected(LayoutTranslation, received: String, restored: String)
    /// Settings › Scanner layout is set, but this scan only reads without it.
    case settingNotNeeded(LayoutTranslation)

    public var message: String {
        switch self {
        case let .detected(translation, received, restored):
            let scanner = translation.scanner == .us ? "a US keyboard" : translation.scanner.title
            let computer = translation.computer == .us ? "a US keyboard" : translation.computer.title
            return "Your scanner types for \(scanner) but this computer uses \(computer), "
                + "so “\(Self.excerpt(restored))” arrives as “\(Self.excerpt(received))”: "
                + "set the scanner's keyboard layout to \(translation.computer.title), "
                + "or set Settings › Scanner layout to “\(translation)”."
        case let .settingNotNeeded(translation):
            return "This scan reads without Settings › Scanner layout “\(translation)”: "
                + "the scanner now matches this computer, so set Settings › Scanner layout to none."
        }
    }

    public var translation: LayoutTranslation {
        switch self {
        case let .detected(translation, _, _), let .settingNotNeeded(translation): translation
        }
    }

    /// Enough of the scan to show the swap without flooding the toast.
    private static func excerpt(_ text: String) -> String {
        let printable = text.filter { $0.unicodeScalars.allSatisfy { $0.value >= 0x20 } }
        return printable.count <= 12 ? printable : printable.prefix(12) + "…"
    }
}
