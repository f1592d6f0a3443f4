import CaptureMode
import Domain
import Foundation
import Scanning

// MARK: - Changing one setting

extension Settings {
    /// Steps one setting to its next (or previous) value; rows that are not settings change nothing.
    public mutating func cycle(_ row: SettingsRow, forward: Bool) {
        switch row {
        case .snapBackTarget: snapBackTarget = snapBackTarget == .lastTab ? .history : .lastTab
        case .captureGating: captureGating.toggle()
        case .tabBarPosition: tabBarPosition = tabBarPosition == .bottom ? .top : .bottom
        case .colorEnabled: colorEnabled.toggle()
        case .freeTextCodes: allowFreeTextCodes.toggle()
        case .maximumPhotos:
            maximumPhotos = Self.step(Settings.maximumPhotosChoices, from: maximumPhotos, forward: forward)
        case .maximumPhotoSize:
            let mebibytes = Self.step(Settings.maximumPhotoMebibyteChoices, from: maximumPhotoBytes / (1024 * 1024), forward: forward)
            maximumPhotoBytes = mebibytes * 1024 * 1024
        case .autoAdvance:
            autoAdvanceMilliseconds = Self.step(Settings.autoAdvanceChoices, from: autoAdvanceMilliseconds, forward: forward)
        case .tabBarOnScroll: tabBarMinimizesOnScroll.toggle()
        case .separatorStandIn:
            separatorStandIn = Self.step(Self.separatorStandInChoices, from: separatorStandIn, forward: forward)
        case .scannerLayout:
            scannerLayout = Self.step([nil] + LayoutTranslation.candidates.map { $0 }, from: scannerLayout, forward: forward)
        case .photoPreviews:
            photoPreviews = Self.step(PhotoPreviewSetting.allCases, from: photoPreviews, forward: forward)
        case .theme:
            theme = Self.step(Self.themeChoices, from: theme, forward: forward)
        case .clearHistory:
            break
        }
    }

    /// The next (or previous) choice after `current` in `choices`' order, wrapping.
    static func step<T: Equatable>(_ choices: [T], from current: T, forward: Bool) -> T {
        let index = choices.firstIndex(of: current) ?? 0
        return choices[(index + (forward ? 1 : choices.count - 1)) % choices.count]
    }

    /// The next (or previous) choice after `current`, wrapping; a value between choices steps to
    /// its neighbour in that direction.
    static func step<T: Comparable>(_ choices: [T], from current: T, forward: Bool) -> T {
        if forward { return choices.first { $0 > current } ?? choices[0] }
        return choices.last { $0 < current } ?? choices[choices.count - 1]
    }

    /// What a capture started now takes from Settings.
    public var captureConfig: CaptureConfig {
        var config = CaptureConfig(
            autoAdvanceMilliseconds: autoAdvanceMilliseconds,
            allowsFreeText: allowFreeTextCodes,
            maximumPhotos: maximumPhotos,
            maximumPhotoBytes: maximumPhotoBytes
        )
        config.scannerLayout = scannerLayout
        config.separatorStandIn = separatorStandIn.flatMap(\.first)
        return config
    }
}
