import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

/// docs/keys.md's list of settings, generated from `SettingsRow.allCases` and `Settings.cycle`
/// (KeysDocumentTests writes and checks it with the rest of the document): every setting the
/// Settings tab has, in its order, with every value Enter steps through and the default. A new
/// row cannot be left out: `value(of:in:)` switches over every row.
enum SettingsDocument {
    static var section: String {
        var out = """

            ## Every setting

            The rows of the Settings tab, in its order (`→`, `Enter`, `Space` or a click step to the
            next value, `←` to the previous one). They are stored in the database and apply at once.

            | setting | values (the default first) |
            | --- | --- |

            """
        for row in SettingsRow.allCases {
            let values = values(of: row).joined(separator: " · ").replacingOccurrences(of: "|", with: "\\|")
            out += "| \(row.title) | \(values) |\n"
        }
        return out
    }

    /// Every value of `row`, from the default, stepping as Enter does until it comes round.
    static func values(of row: SettingsRow) -> [String] {
        guard row.isSetting else { return ["deletes every History record and its photos, after asking"] }
        var settings = Settings.default
        var values: [String] = []
        repeat {
            values.append(value(of: row, in: settings))
            settings.cycle(row, forward: true)
        } while settings != .default && values.count < 100
        if values.count > 6 {
            // The scanner layouts: every pair of keyboard layouts, named rather than listed.
            return Array(values.prefix(3)) + ["\u{2026} (\(values.count) in all)"]
        }
        return values
    }

    /// A setting's value as the Settings tab words it (without the ‹ › around a choice).
    static func value(of row: SettingsRow, in settings: Settings) -> String {
        switch row {
        case .snapBackTarget: settings.snapBackTarget.title
        case .captureGating: settings.captureGating ? "on" : "off"
        case .tabBarPosition: settings.tabBarPosition.title
        case .tabBarOnScroll: settings.tabBarMinimizesOnScroll ? "Minimize" : "Never"
        case .colorEnabled: settings.colorEnabled ? "on" : "off"
        case .theme: settings.theme?.title ?? "as config.toml says (Auto)"
        case .autoAdvance: settings.autoAdvanceMilliseconds > 0 ? "\(settings.autoAdvanceMilliseconds) ms" : "Off"
        case .freeTextCodes: settings.allowFreeTextCodes ? "on" : "off"
        case .maximumPhotos: "\(settings.maximumPhotos)"
        case .maximumPhotoSize: "\(settings.maximumPhotoBytes / (1024 * 1024)) MiB"
        case .photoPreviews: settings.photoPreviews.title
        case .scannerLayout: settings.scannerLayout.map(\.description) ?? "Same as this computer"
        case .separatorStandIn: settings.separatorStandIn.map { "`\($0)` or 0x1D" } ?? "0x1D only"
        case .clearHistory: ""
        }
    }
}

@Suite struct SettingsDocumentTests {
    /// Every setting is in docs/keys.md, by the title the Settings tab shows.
    @Test func keysDocumentListsEverySetting() throws {
        let document = try String(contentsOf: KeysDocumentTests.documentURL, encoding: .utf8)
        for row in SettingsRow.allCases {
            #expect(document.contains("| \(row.title) |"), "docs/keys.md lacks \(row.title)")
        }
        #expect(document.contains(SettingsDocument.section))
    }

    @Test func everyValueComesRound() {
        #expect(SettingsDocument.values(of: .tabBarOnScroll) == ["Minimize", "Never"])
        #expect(SettingsDocument.values(of: .separatorStandIn).first == "0x1D only")
        #expect(SettingsDocument.values(of: .scannerLayout).last?.contains("in all") == true)
    }
}
