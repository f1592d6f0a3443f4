import Foundation
import Scanning

/// Where the selection lands when capture mode closes.
public enum SnapBackTarget: String, CaseIterable, Codable, Sendable {
    /// The content tab you were on when you chose Create.
    case lastTab
    /// Always History, to show what was just captured.
    case history

    public var title: String { self == .lastTab ? "Last tab" : "History" }
}

public enum TabBarPosition: String, CaseIterable, Codable, Sendable {
    case bottom, top
    public var title: String { self == .bottom ? "Bottom" : "Top" }
}

/// Everything the Settings tab changes; stored in the database and applied at once.
public struct Settings: Equatable, Codable, Sendable {
    public var snapBackTarget: SnapBackTarget
    public var captureGating: Bool
    public var tabBarPosition: TabBarPosition
    public var colorEnabled: Bool
    public var autoAdvanceMilliseconds: Int
    public var allowFreeTextCodes: Bool
    /// Photos one capture may hold.
    public var maximumPhotos: Int = 3
    /// The largest photo file accepted, in bytes.
    public var maximumPhotoBytes: Int64 = 50 * 1024 * 1024
    /// Scrolling down a list minimizes the tab bar (true, the default) or never does.
    public var tabBarMinimizesOnScroll = true
    /// The character a scanner is set to send for the GS1 separator (FNC1) instead of 0x1D. Nil:
    /// only 0x1D (Ctrl-]) separates.
    public var separatorStandIn: String?
    public static let separatorStandInChoices: [String?] = [nil, "~", "^", "|", "#", "{"]
    /// A scanner set to another keyboard layout than this computer's: what to undo. Nil: none.
    public var scannerLayout: LayoutTranslation?
    /// How photos are shown: automatic, always blocks, or not at all.
    public var photoPreviews: PhotoPreviewSetting = .automatic
    /// The colour theme chosen here; nil: as config.toml says (auto when it says nothing).
    public var theme: Theme?
    /// The theme row's values in Enter's order: config.toml's, then each theme.
    public static let themeChoices: [Theme?] = [nil] + Theme.allCases.map { $0 }

    public init(
        snapBackTarget: SnapBackTarget = .lastTab,
        captureGating: Bool = false,
        tabBarPosition: TabBarPosition = .bottom,
        colorEnabled: Bool = true,
        autoAdvanceMilliseconds: Int = 800,
        allowFreeTextCodes: Bool = false
    ) {
        self.snapBackTarget = snapBackTarget
        self.captureGating = captureGating
        self.tabBarPosition = tabBarPosition
        self.colorEnabled = colorEnabled
        self.autoAdvanceMilliseconds = autoAdvanceMilliseconds
        self.allowFreeTextCodes = allowFreeTextCodes
    }

    public static let `default` = Settings()

    /// The photo counts Settings cycles through.
    public static let maximumPhotosChoices = [1, 2, 3, 5, 10]

    /// The photo size limits Settings cycles through, in MiB.
    public static let maximumPhotoMebibyteChoices: [Int64] = [10, 25, 50, 100, 200]

    /// The auto-advance delays Settings cycles through.
    public static let autoAdvanceChoices = [0, 400, 800, 1500, 3000]
}
