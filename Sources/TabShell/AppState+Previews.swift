import CaptureMode
import Domain
import Foundation

/// Photo previews from the shell's side: which previews the screen shows, asked for after every
/// action, and the viewer that shows one photo full screen.
extension AppState {
    // MARK: - What the screen shows

    /// The previews the screen shows now, in drawing order: the viewer's photo; capture's staged
    /// photos (on its photos step and on review); or the photos of a record's detail that are on
    /// screen. Empty when previews are off.
    public var wantedPreviews: [PreviewRequest] {
        guard let style = previewStyle, !layout.isTooSmall else { return [] }
        return wantedPreviews(in: presentation, style: style)
    }

    private func wantedPreviews(in presentation: Presentation, style: PreviewStyle) -> [PreviewRequest] {
        switch presentation {
        case let .viewer(viewer, _):
            return [PreviewRequest(source: viewer.current.source, box: PreviewBoxes.viewer(for: size), style: style)]
        case let .alert(_, over):
            return wantedPreviews(in: over, style: style)
        case let .fullScreenCapture(capture):
            guard capture.phase == .photos || capture.phase == .review, capture.collectsPhotos else { return [] }
            let box = PreviewBoxes.thumbnail(for: size)
            return capture.photos.map { PreviewRequest(source: .staged(storedName: $0.storedName), box: box, style: style) }
        case .none, .sheet:
            guard selectedTab == .history, let detail = history.detail, let photos = detail.photos,
                let box = layout.thumbnail
            else { return [] }
            let detailLayout = HistoryDetailLayout(layout: layout)
            guard detailLayout.showsThumbnails(of: detail) else { return [] }
            let first = min(max(0, detail.scrollOffset), detailLayout.maximumScrollOffset(of: detail))
            let onScreen = first..<(first + detailLayout.rows)
            return detailLayout.photoLineRanges(of: detail).enumerated().compactMap { index, lines in
                guard lines.overlaps(onScreen), photos.indices.contains(index), !photos[index].storedName.isEmpty else { return nil }
                return PreviewRequest(source: .stored(storedName: photos[index].storedName), box: box, style: style)
            }
        }
    }

    /// After every action: close the viewer when previews were turned off or its record has gone
    /// from History (deleted here or elsewhere), then ask for the previews the screen now shows and cancel the rest.
    mutating func settlePreviews() -> [AppEffect] {
        if case let .viewer(viewer, over) = presentation,
            previewStyle == nil || viewer.recordID.map({ history.detail?.record.id != $0 }) == true
        {
            presentation = over
        }
        return previews.want(wantedPreviews)
    }

    mutating func previewLoaded(_ request: PreviewRequest, ticket: Int, outcome: PreviewOutcome) -> [AppEffect] {
        previews.loaded(request, ticket: ticket, outcome: outcome)
        return []
    }

    // MARK: - The viewer

    /// Enter on a record's photo, or F3 on a staged one: that photo full screen, ← and → for the
    /// others. Says why instead when previews are off; does nothing where no photo is highlighted.
    mutating func openViewer() -> [AppEffect] {
        let viewer: PhotoViewerState?
        switch presentation {
        case let .fullScreenCapture(capture):
            // While Done saves too: looking at a photo changes nothing of the capture.
            guard capture.phase == .photos || capture.phase == .review, capture.copy == nil, !capture.isConfirmingClose
            else { return [] }
            viewer = PhotoViewerState(photos: capture.photos.map(ViewerPhoto.init), index: capture.photoCursor)
        case .none:
            guard selectedTab == .history, let detail = history.detail, let photos = detail.photos else { return [] }
            viewer = PhotoViewerState(photos: photos.compactMap(ViewerPhoto.init), index: detail.photoCursor, recordID: detail.record.id)
        case .sheet, .alert, .viewer:
            return []
        }
        guard let viewer else { return [] }
        guard previewStyle != nil else {
            status = StatusMessage(
                previewTerminal == nil
                    ? "Photos cannot be shown here."
                    : "Photo previews are off: turn them on in Settings.")
            return []
        }
        presentation = .viewer(viewer, over: presentation)
        return []
    }

    /// A click on a photo: it becomes the highlighted one, and shows full screen as with Enter.
    mutating func photoClicked(_ index: Int) -> [AppEffect] {
        switch presentation {
        case var .fullScreenCapture(capture):
            guard capture.photos.indices.contains(index), !capture.isShowingKeys else { return [] }
            capture.photoCursor = index
            presentation = .fullScreenCapture(capture)
        case .none:
            guard selectedTab == .history, var detail = history.detail, detail.photos?.indices.contains(index) == true else { return [] }
            detail.photoCursor = index
            history.replaceTop(with: detail)
        case .sheet, .alert, .viewer:
            return []
        }
        return openViewer()
    }

    mutating func stepViewer(by offset: Int) -> [AppEffect] {
        guard case .viewer(var viewer, let over) = presentation else { return [] }
        viewer.step(by: offset)
        presentation = .viewer(viewer, over: over)
        return []
    }

    /// Esc: back to what the viewer was opened from, as it was.
    mutating func closeViewer() -> [AppEffect] {
        if case let .viewer(_, over) = presentation { presentation = over }
        return []
    }
}

extension AppState {
    /// The terminal answered what it can draw (sixel, kitty, iTerm2 images, or none of them).
    mutating func previewTerminalFound(_ terminal: PreviewTerminal) -> [AppEffect] {
        previewTerminal = terminal
        return []
    }
}
