import CaptureMode
import Foundation
import TabShell

/// The renderer: a pure function from the app state to a frame of cells.
public enum Screen {
    /// Draws `state` at `state.size`: the tab shell, or capture mode, with any sheet or alert on
    /// top; a notice instead when the terminal is below the minimum size.
    public static func render(_ state: AppState, options: RenderOptions) -> Frame {
        let context = RenderContext(
            options: options, previews: state.previews, previewStyle: state.previewStyle, thumbnailBox: state.layout.thumbnail
        )
        var canvas = Canvas(size: state.size, context: context)
        if state.focus == .tooSmall {
            TooSmallView(size: state.size).draw(on: &canvas)
        } else {
            draw(state.presentation, of: state, context: context, on: &canvas)
        }
        return canvas.frame
    }

    private static func draw(_ presentation: Presentation, of state: AppState, context: RenderContext, on canvas: inout Canvas) {
        switch presentation {
        case .none:
            ShellView(state: state, context: context).draw(on: &canvas)
        case let .sheet(.help(help)):
            ShellView(state: state, context: context).draw(on: &canvas)
            let regions = ShellLayout(state: state)
            HelpSheetView(
                lines: KeyMap.helpLines(in: state, unicode: context.options.unicode), scrollOffset: help.scrollOffset,
                layout: state.layout, regions: regions, context: context
            )
            .draw(on: &canvas)
        case let .sheet(.search(search)):
            ShellView(state: state, context: context).draw(on: &canvas)
            let regions = ShellLayout(state: state)
            SearchSheetView(search: search, layout: state.layout, regions: regions, context: context)
                .draw(on: &canvas)
        case let .fullScreenCapture(capture):
            CaptureView(capture: capture, state: state, context: context).draw(on: &canvas)
        case let .alert(alert, over):
            draw(over, of: state, context: context, on: &canvas)
            AlertView(alert: alert, context: context).draw(on: &canvas)
        case let .viewer(viewer, _):
            PhotoViewerView(viewer: viewer, state: state, context: context).draw(on: &canvas)
        }
    }
}
