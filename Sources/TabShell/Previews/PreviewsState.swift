import Domain
import Foundation

/// The previews the app has asked for and holds: one status per request, the requests the
/// screen wants now, and the most recently wanted of the others, kept so that going back to a
/// screen (or resizing back) shows its photos at once instead of asking again.
///
/// The shell tells it what the screen wants after every action (`want`); it answers with the
/// effects that load what is missing and cancel what is no longer wanted. Answers come back as
/// `.previewLoaded` with their ticket; an answer whose ticket is not the one waiting is dropped.
public struct PreviewsState: Equatable, Sendable {
    public private(set) var entries: [PreviewRequest: PreviewStatus] = [:]
    /// What the screen showed last, in drawing order.
    public private(set) var wanted: [PreviewRequest] = []
    /// Every request held, least recently wanted first.
    private var recency: [PreviewRequest] = []
    private var nextTicket = 1

    /// Finished previews kept when no longer on screen (a viewer's picture is about 12,000 cells).
    public static let retainedCount = 12

    public init() {}

    public func status(of request: PreviewRequest) -> PreviewStatus? { entries[request] }

    /// A finished image of `source` in `style` that fits `box` and fills at least half of it one
    /// way, the largest there is: drawn while the preview for a new box (after a resize) is
    /// being made, so the picture does not blink out. (A thumbnail is no stand-in for the viewer.)
    /// A picture in characters stands in for one in graphics, so a photo drawn in blocks before
    /// the terminal's answer said graphics stays until its graphics picture is made; an image
    /// in the request's own style is preferred.
    public func standIn(for request: PreviewRequest) -> PreviewImage? {
        var best: (image: PreviewImage, sameStyle: Bool)?
        for (key, status) in entries where key.source == request.source {
            let sameStyle = key.style == request.style
            guard sameStyle || Self.symbols(key.style, standInFor: request.style) else { continue }
            guard case let .ready(image) = status, request.box.contains(image.size),
                image.size.columns * 2 >= request.box.columns || image.size.rows * 2 >= request.box.rows
            else { continue }
            let area = image.size.columns * image.size.rows
            if let best, (best.sameStyle ? 1 : 0, best.image.size.columns * best.image.size.rows) >= (sameStyle ? 1 : 0, area) { continue }
            best = (image, sameStyle)
        }
        return best?.image
    }

    private static func symbols(_ style: PreviewStyle, standInFor wanted: PreviewStyle) -> Bool {
        if case .symbols = style, case .graphics = wanted { true } else { false }
    }

    // MARK: - Reducer

    /// The screen now wants `requests`: ask for those not held, cancel those loading that are
    /// no longer wanted, and forget the least recently wanted finished ones beyond `retainedCount`.
    mutating func want(_ requests: [PreviewRequest]) -> [AppEffect] {
        guard requests != wanted else { return [] }
        wanted = requests
        var loads: [AppEffect] = []
        for request in requests {
            recency.removeAll { $0 == request }
            recency.append(request)
            if entries[request] == nil {
                entries[request] = .loading(ticket: nextTicket)
                loads.append(.loadPreview(request, ticket: nextTicket))
                nextTicket += 1
            }
        }
        var cancels: [AppEffect] = []
        let onScreen = Set(requests)
        var kept = 0
        for request in recency.reversed() where !onScreen.contains(request) {
            switch entries[request] {
            case let .loading(ticket)?:
                cancels.append(.cancelPreview(ticket: ticket))
                entries[request] = nil
            case .ready?, .failed?:
                kept += 1
                if kept > Self.retainedCount { entries[request] = nil }
            case nil:
                break
            }
        }
        recency.removeAll { entries[$0] == nil }
        // Cancel first: a decode no longer wanted should not hold up the ones that are.
        return cancels + loads
    }

    /// The answer to `.loadPreview(request, ticket)`; dropped unless that ticket is the one waiting.
    mutating func loaded(_ request: PreviewRequest, ticket: Int, outcome: PreviewOutcome) {
        guard case .loading(ticket)? = entries[request] else { return }
        switch outcome {
        case let .image(image): entries[request] = .ready(image)
        case let .failed(sentence): entries[request] = .failed(sentence)
        }
    }
}
