import CaptureMode
import Foundation
import TabShell

/// Asked when Close would delete staged photos: an alert with Discard (the default, `y`) and
/// Keep (`n`), whose clicks go to the capture reducer.
struct ConfirmCloseView {
    let capture: CaptureState
    let context: RenderContext

    func draw(on canvas: inout Canvas) {
        let count = capture.photos.count
        let alert = Alert(
            title: "Discard this capture?",
            message: "Close deletes the \(count == 1 ? "photo" : "\(count) photos") copied so far. Nothing is saved.",
            buttons: [AlertButton("Discard", key: "y"), AlertButton("Keep", key: "n")]
        )
        AlertView(alert: alert, context: context) { index in
            index == 0 ? .capture(.closeConfirmed) : .capture(.closeCancelled)
        }
        .draw(on: &canvas)
    }
}
