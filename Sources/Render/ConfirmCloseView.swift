import CaptureMode
import Foundation
import TabShell

/// Asked when Close would throw away what the capture holds (a code, a note, typed text,
/// photos): Keep editing is the default (Enter, `n`, Esc), Discard is `y`. The clicks go to the
/// capture reducer. The same question for every kind of work.
struct ConfirmCloseView {
    let capture: CaptureState
    let context: RenderContext

    static func alert(for capture: CaptureState) -> Alert { .confirmCaptureClose(capture) }

    func draw(on canvas: inout Canvas) {
        AlertView(alert: Self.alert(for: capture), context: context) { index in
            index == 0 ? .capture(.closeCancelled) : .capture(.closeConfirmed)
        }
        .draw(on: &canvas)
    }
}
