import CaptureMode
import Domain
import Foundation
import PropertyBased
import TabShell
import Testing

/// Random sessions around photos: a record's detail and a photos capture, the viewer, resizes,
/// settings that change how previews are drawn, and answers that come late, twice or never.
/// After every step the preview invariants (`ShellInvariants.previewViolations`) must hold, and
/// the viewer always shows a photo of what it was opened from.
@Suite("Previews: random sessions")
struct PreviewPropertyTests {
    enum Step: CaseIterable, Sendable {
        case move, view, left, right, escape, back, resize, answer, answerLast, answerStale
        case colorCycled, previewsCycled, reopen, recordGone, reload, capture, stage, review, tab

        /// The viewer's own steps come up more often than the rest.
        static let weighted: [Step] = allCases.flatMap { step -> [Step] in
            switch step {
            case .view, .answer: [step, step, step]
            case .left, .right, .stage: [step, step]
            default: [step]
            }
        }
    }

    static let runs = 300
    static let sizes = [
        ScreenSize(rows: 24, columns: 80), ScreenSize(rows: 12, columns: 40), ScreenSize(rows: 40, columns: 120),
        ScreenSize(rows: 8, columns: 24), ScreenSize(rows: 16, columns: 60), ScreenSize(rows: 5, columns: 10),
    ]

    struct Coverage {
        var viewersOpened = 0, viewerSteps = 0, picturesInViewer = 0, resizesInViewer = 0, failures = 0
        var capturesViewed = 0, cancels = 0
    }

    @Test("previews and the viewer keep their invariants through random sessions")
    func randomSessions() async {
        var coverage = Coverage()
        let steps = zip(Gen.int(in: 0...(Step.weighted.count - 1)), Gen.int(in: 0...9_999)).array(of: 40...120)
        await propertyCheck(count: Self.runs, input: steps) { steps in
            // A long CPU-bound test on a 2-core machine: let other async tests have the pool.
            await Task.yield()
            var state = AppState.detailWithPhotos(3)
            var frontEnd = SimulatedFrontEnd()
            frontEnd.previewsInFlight = state.previews.entries.compactMap { request, status in
                if case let .loading(ticket) = status { (request, ticket) } else { nil }
            }
            // The steps as values, described only when a failure prints them.
            var trail: [(Step, AppAction)] = []
            for (index, n) in steps {
                let step = Step.weighted[index]
                let actions = Self.actions(for: step, n: n, state: state, frontEnd: &frontEnd)
                for action in actions {
                    let before = state
                    let effects = state.send(action)
                    frontEnd.perform(effects)
                    trail.append((step, action))
                    coverage.cancels += effects.previewCancels.count
                    var problems = ShellInvariants.previewViolations(effects: effects, after: state, frontEnd: frontEnd)
                    if let viewer = state.presentation.viewer {
                        if viewer.recordID == nil, state.presentation.capture == nil {
                            problems.append("a capture's viewer without its capture")
                        }
                        // (Below the minimum size nothing is drawn, so nothing is wanted.)
                        if !state.layout.isTooSmall,
                            state.previews.wanted.count != 1 || state.previews.wanted.first?.source != viewer.current.source
                        {
                            problems.append("the viewer wants \(state.previews.wanted.map(\.source)), not its photo")
                        }
                        if before.presentation.viewer == nil { coverage.viewersOpened += 1 }
                        if viewer.recordID == nil, before.presentation.viewer == nil { coverage.capturesViewed += 1 }
                        if let old = before.presentation.viewer, old.index != viewer.index { coverage.viewerSteps += 1 }
                        if case .resized = action { coverage.resizesInViewer += 1 }
                        if case .previewLoaded(_, _, .image) = action, before.previews != state.previews { coverage.picturesInViewer += 1 }
                    }
                    if case .previewLoaded(_, _, .failed) = action, before.previews != state.previews { coverage.failures += 1 }
                    let entries = state.previews.entries.count
                    if entries > state.previews.wanted.count + PreviewsState.retainedCount {
                        problems.append("\(entries) previews held")
                    }
                    guard problems.isEmpty else {
                        Issue.record("\(problems.joined(separator: "; "))\nlast steps:\n\(trail.suffix(20).map { "\($0) → \($1)" }.joined(separator: "\n"))")
                        return
                    }
                }
            }
        }
        #expect(coverage.viewersOpened > Self.runs / 2, "\(coverage)")
        #expect(coverage.capturesViewed > Self.runs / 8, "\(coverage)")
        #expect(coverage.viewerSteps > Self.runs / 8, "\(coverage)")
        #expect(coverage.picturesInViewer > Self.runs / 8, "\(coverage)")
        #expect(coverage.resizesInViewer > Self.runs / 8, "\(coverage)")
        #expect(coverage.failures > Self.runs / 8, "\(coverage)")
        #expect(coverage.cancels > Self.runs, "\(coverage)")
        print("preview property: \(Self.runs) sessions; \(coverage)")
    }

    static func actions(for step: Step, n: Int, state: AppState, frontEnd: inout SimulatedFrontEnd) -> [AppAction] {
        switch step {
        case .move: return [.listMoved(ListMove.allCases[n % ListMove.allCases.count])]
        case .view: return [.photoViewRequested]
        case .left: return [.viewerPhotoStepped(by: -1)]
        case .right: return [.viewerPhotoStepped(by: 1)]
        case .escape: return [.escapePressed]
        case .back: return [.history(.backRequested)]
        case .resize: return [.resized(sizes[n % sizes.count])]
        case .answer, .answerLast:
            guard !frontEnd.previewsInFlight.isEmpty else { return [] }
            let (request, ticket) = step == .answer ? frontEnd.previewsInFlight.removeFirst() : frontEnd.previewsInFlight.removeLast()
            return [.previewLoaded(request, ticket: ticket, frontEnd.previewOutcome(for: request, n: n))]
        case .answerStale:
            guard let request = state.previews.wanted.first else { return [] }
            return [.previewLoaded(request, ticket: 10_000 + n, .failed("stale"))]
        case .colorCycled: return [.settings(.rowCycled(.colorEnabled, forward: true))]
        case .previewsCycled: return [.settings(.rowCycled(.photoPreviews, forward: n % 2 == 0))]
        case .reopen: return [.rowActivated]
        case .recordGone:
            guard let id = state.history.detail?.record.id, n % 4 == 0 else { return [] }
            return [.history(.detailLoaded(id: id, detail: nil))]
        case .reload:
            guard let detail = state.history.detail else { return [] }
            var record = detail.record
            record.kind = .photos
            let photos = (0..<(1 + n % 4)).map { recordPhoto($0, record: record.id) }
            return [.history(.detailLoaded(id: record.id, detail: RecordDetail(record: record, photos: photos)))]
        case .capture: return [.tabChosen(.create), .capture(.kindChosen(n % 2 == 0 ? .photos : .product)), .capture(.skipTapped)]
        case .stage:
            guard let capture = state.presentation.capture, capture.phase == .photos else { return [] }
            frontEnd.nextPhoto += 1
            return [.capture(.textTyped("p.png")), .capture(.enterPressed), .capture(.photoStaged(stagedPhoto(frontEnd.nextPhoto)))]
        case .review: return [.capture(.enterPressed)]
        case .tab: return [.tabChosen(.history)]
        }
    }
}
