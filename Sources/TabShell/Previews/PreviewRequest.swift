import Domain
import Foundation

/// One preview the model wants: a photo, drawn in a style, to fit a box. It is also the key the
/// answer comes back under, so an answer for a box or a style no longer on screen is not drawn.
public struct PreviewRequest: Hashable, Sendable {
    public var source: PhotoSource
    public var box: CellBox
    public var style: PreviewStyle

    public init(source: PhotoSource, box: CellBox, style: PreviewStyle) {
        self.source = source
        self.box = box
        self.style = style
    }
}

/// What a preview request came to: the image, or the one sentence a placeholder shows instead
/// ("This photo is damaged: it ends early.").
public enum PreviewOutcome: Hashable, Sendable {
    case image(PreviewImage)
    case failed(String)
}

/// Where a wanted preview is.
public enum PreviewStatus: Hashable, Sendable {
    /// Asked for with this ticket; the answer carries it back.
    case loading(ticket: Int)
    case ready(PreviewImage)
    /// The placeholder's sentence.
    case failed(String)
}
