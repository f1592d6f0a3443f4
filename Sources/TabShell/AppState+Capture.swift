import CaptureMode
import Domain
import Foundation

/// Capture mode from the shell's side: opening it, translating its effects, and what a Done
/// changes in the tabs.
extension AppState {
    /// Opens capture for `request`, else for the request chosen in the Inbox (if any).
    mutating func openCapture(for request: InboxRequest? = nil) -> [AppEffect] {
        let target = request ?? inbox.chosenRequest
        if settings.captureGating, target == nil {
            selectedTab = .inbox
            // With no pending request there is none to highlight: say how to add one.
            presentation = .none
            // The Inbox's keys in force, as the question names them.
            let required = Alert.requestRequired(
                captureKey: KeyMap.keyName(sending: .rowActivated, in: self), chooseKey: KeyMap.keyName(sending: .inbox(.choiceToggled), in: self))
            presentation = .alert(inbox.requests.contains { $0.status == .pending } ? required : .noRequestToCapture, over: .none)
            return []
        }
        if let target, !target.kind.isAvailable {
            presentation = .alert(
                Alert(
                    title: "\(target.kind.title) capture is not available",
                    message: "This version cannot capture \(target.kind.title.lowercased()) yet. The request stays pending."
                ),
                over: .none
            )
            return []
        }
        let link = target.map { CaptureRequestLink(id: $0.id, title: $0.title, kind: $0.kind) }
        presentation = .fullScreenCapture(CaptureState(config: captureConfig, request: link))
        return []
    }

    /// Sends an action to the capture on screen and turns its effects into the shell's. Done's
    /// outcome and the save's ticks reach it under the photo viewer or an alert too (a photo
    /// looked at while saving); everything else only while it is on top.
    mutating func toCapture(_ action: CaptureAction) -> [AppEffect] {
        guard var capture = presentation.capture else { return [] }
        switch (action, presentation) {
        case (.commitFailed, _), (.saveWaited, _), (_, .fullScreenCapture): break
        default: return []
        }
        let before = capture.barcode
        let effects = capture.send(action)
        presentation = presentation.replacingCapture(with: capture)
        // A code accepted (or changed): ask the catalog what product it is.
        let lookUp: [AppEffect] = capture.barcode.flatMap { $0 != before ? [.lookUpProduct($0)] : nil } ?? []
        return lookUp
            + effects.flatMap { effect -> [AppEffect] in
                switch effect {
                case let .scheduleAutoAdvance(milliseconds, token):
                    return [.schedule(afterMilliseconds: milliseconds, action: .capture(.autoAdvanceElapsed(token: token)))]
                case let .commit(submission): return [.commitCapture(submission)]
                case let .scheduleSaveTick(milliseconds, token, seconds):
                    return [.schedule(afterMilliseconds: milliseconds, action: .capture(.saveWaited(token: token, seconds: seconds)))]
                case let .stagePhoto(path): return [.stagePhoto(path: path, draft: capture.draft)]
                case let .unstagePhoto(photo): return [.unstagePhoto(photo)]
                case let .completePath(text): return [.completePath(text)]
                case .dismiss:
                    presentation = .none
                    selectedTab = snapBackTarget
                    return [.discardStaging] + (selectedTab == .history ? toHistory(.rowsNeeded) : [])
                }
            }
    }

    /// Done was written: capture closes, History shows the new record at the top, and the
    /// request it answered is highlighted once the Inbox shows.
    mutating func captureCommitted(_ submission: CaptureSubmission) -> [AppEffect] {
        presentation = .none
        selectedTab = snapBackTarget
        _ = toHistory(.recordCommitted)
        if let requestID = submission.requestID {
            _ = toInbox(.answered(requestID: requestID))
        }
        let product = submission.product.map { " (\($0.summary))" } ?? ""
        status = StatusMessage("Saved \(submission.kind.title.lowercased())\(product) to History.", kind: .success)
        return [inbox.loadEffect] + toHistory(.rowsNeeded)
    }
}
