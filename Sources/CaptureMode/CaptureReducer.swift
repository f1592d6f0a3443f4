import Foundation

extension CaptureState {
    /// The capture reducer: applies one action and returns the effects to perform.
    public mutating func send(_ action: CaptureAction) -> [CaptureEffect] {
        if isCommitting {
            if case let .commitFailed(message) = action {
                isCommitting = false
                notice = message
            }
            return []
        }
        switch action {
        case let .kindChosen(kind):
            guard phase == .picker else { return [] }
            guard kind.isAvailable else {
                notice = CaptureIncomplete.unavailable(kind).message
                return []
            }
            notice = nil
            start(kind)
            return []

        case let .pickerCursorMoved(delta):
            guard phase == .picker, !pickerKinds.isEmpty else { return [] }
            pickerCursor = min(max(0, pickerCursor + delta), pickerKinds.count - 1)
            return []

        case .pickerConfirmed:
            guard phase == .picker, pickerKinds.indices.contains(pickerCursor) else { return [] }
            return send(.kindChosen(pickerKinds[pickerCursor]))

        case let .textTyped(text):
            return edit { $0.insert(text) }

        case let .textPasted(text):
            guard phase == .barcode, barcode == nil else { return edit { $0.insert(text) } }
            barcodeInput.insert(text)
            return submitBarcode()

        case .enterPressed:
            switch phase {
            case .picker: return send(.pickerConfirmed)
            case .barcode: return barcode == nil ? submitBarcode() : advanceAfterScan()
            case .note: return edit { $0.insert("\n") }
            case .review: return send(.doneTapped)
            }

        case .backspacePressed:
            return edit { $0.backspace() }

        case .deletePressed:
            return edit { $0.deleteForward() }

        case let .cursorMoved(motion):
            if phase == .picker {
                switch motion {
                case .up: return send(.pickerCursorMoved(by: -1))
                case .down: return send(.pickerCursorMoved(by: 1))
                case .home: pickerCursor = 0
                case .end: pickerCursor = max(0, pickerKinds.count - 1)
                case .left, .right: break
                }
                return []
            }
            return edit { $0.move(motion) }

        case let .autoAdvanceElapsed(token):
            guard token == autoAdvanceToken, phase == .barcode, barcode != nil else { return [] }
            return advanceAfterScan()

        case .doneTapped:
            switch submission {
            case let .success(submission):
                notice = nil
                isCommitting = true
                return [.commit(submission)]
            case let .failure(reason):
                notice = reason.message
                return []
            }

        case .closeTapped:
            return [.dismiss]

        case .commitFailed:
            return []
        }
    }

    /// Applies a text edit to the focused field, if any; clears stale messages.
    private mutating func edit(_ change: (inout TextBuffer) -> Void) -> [CaptureEffect] {
        switch phase {
        case .barcode where barcode == nil:
            change(&barcodeInput)
            barcodeError = nil
        case .note:
            change(&note)
        default:
            return []
        }
        notice = nil
        return []
    }

    private mutating func submitBarcode() -> [CaptureEffect] {
        switch BarcodeValidator.validate(barcodeInput.text, allowFreeText: config.allowsFreeText) {
        case let .success(code):
            barcode = code
            barcodeError = nil
            notice = nil
            scanToast = code
            autoAdvanceToken += 1
            if config.autoAdvanceMilliseconds <= 0 {
                return advanceAfterScan()
            }
            return [.scheduleAutoAdvance(milliseconds: config.autoAdvanceMilliseconds, token: autoAdvanceToken)]
        case let .failure(error):
            barcodeError = error
            return []
        }
    }

    private mutating func advanceAfterScan() -> [CaptureEffect] {
        scanToast = nil
        autoAdvanceToken += 1
        phase = .review
        return []
    }
}
