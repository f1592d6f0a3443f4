/// Notices a scan typed through mismatched keyboard layouts: the scan does not read as it came,
/// but reads as a code once a layout translation is undone.
enum LayoutDetector {
    static func detect(_ input: String, options: ScanOptions) -> LayoutMismatch? {
        let received = String(Scan.trimScannerSuffix(input))
        guard !received.isEmpty else { return nil }
        for translation in LayoutTranslation.candidates {
            let restored = translation.restore(received)
            guard restored != received else { continue }
            if Scan.read(restored, options: options).isRecognised {
                return .detected(translation, received: received, restored: restored)
            }
        }
        // A run of digits with a bad check digit or an unknown length still gives AZERTY away:
        // no digits arrived, and undoing the layout gives nothing but digits.
        guard received.count >= 4, !received.contains(where: \.isASCIIDigit) else { return nil }
        for translation in LayoutTranslation.candidates {
            let restored = translation.restore(received)
            if restored.allSatisfy(\.isASCIIDigit) {
                return .detected(translation, received: received, restored: restored)
            }
        }
        return nil
    }
}
