import CaptureMode
import Domain
import Foundation

/// What capture's screens and sentences say about keys, from the key table in force: a key
/// rebound in config.toml is named as it is, and an unbound one is not offered.
extension KeyMap {
    /// The names of the keys capture's own sentences mention ("Ctrl-X removes the last scan").
    public static func captureKeyNames(overrides: KeyOverrides, unicode: Bool = true) -> CaptureKeyNames {
        func name(_ action: AppAction, in context: KeyContext) -> String? {
            bindings(for: context, in: nil, overrides: overrides)
                .first { $0.action == action }
                .flatMap { $0.keys.first?.label(unicode: unicode) }
        }
        return CaptureKeyNames(
            removeScan: name(.capture(.scanRemovalRequested), in: .captureBarcode),
            restoreScan: name(.capture(.scanRestoreRequested), in: .captureBarcode),
            removePhoto: name(.capture(.photoRemovalRequested), in: .capturePhotos),
            viewPhoto: name(.photoViewRequested, in: .capturePhotoView)
        )
    }

    /// The key that chooses each kind in the picker, as the picker's rows show it.
    public static func kindKeys(in state: AppState, unicode: Bool) -> [CaptureKind: String] {
        var keys: [CaptureKind: String] = [:]
        for binding in bindings(for: .capturePicker, in: state) {
            guard case let .capture(.kindChosen(kind))? = binding.action, keys[kind] == nil, let key = binding.keys.first else { continue }
            keys[kind] = key.label(unicode: unicode)
        }
        return keys
    }
}
