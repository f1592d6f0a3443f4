import Domain
import Foundation

extension CaptureState {
    /// What this capture has collected, as `draft.json` keeps it; nil before a kind is chosen.
    /// `updatedAt` is left at the epoch: the runner stamps it when it writes.
    public var draft: CaptureDraft? {
        guard let kind else { return nil }
        let text = note.text
        let typed = barcode == nil ? barcodeInput.text : ""
        var draft = CaptureDraft(
            kind: kind,
            phase: phase.rawValue,
            barcode: barcode,
            note: text.isEmpty ? nil : text,
            typedCode: typed.isEmpty ? nil : typed,
            requestID: request?.id,
            request: request,
            photos: photos,
            lines: kind == .batch ? batch.lines : nil,
            updatedAt: Date(timeIntervalSince1970: 0)
        )
        // The path typed, or the one being copied in (the field keeps it until the photo is in).
        let path = photoPath.text
        draft.typedPath = path.trimmingCharacters(in: .whitespaces).isEmpty ? nil : path
        return draft
    }
}
