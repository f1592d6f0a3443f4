import Domain
import Foundation

extension CaptureState {
    /// The capture reducer: applies one action and returns the effects to perform. What shows
    /// over the phase takes the action first; then a result of work goes where it belongs
    /// whatever the phase, and input goes to the phase on screen, then to what every phase shares.
    public mutating func send(_ action: CaptureAction) -> [CaptureEffect] {
        if saving != nil, let effects = sendWhileSaving(action) { return effects }
        if let effects = sendToOverlay(action) { return effects }
        if let effects = receive(action) { return effects }
        switch action {
        case let .bodyScrolled(delta): return scrollBody(by: delta)
        case let .pickerRowClicked(index): return pickerRowClicked(index)
        default: break
        }
        let byPhase: [CaptureEffect]? =
            switch phase {
            case .picker: sendToPicker(action)
            case .barcode: sendToBarcode(action)
            case .photos: sendToPhotos(action)
            case .note: sendToNote(action)
            case .review: sendToReview(action)
            }
        let effects = byPhase ?? sendToAnyPhase(action)
        if phase != .review { reviewScrollOffset = 0 }
        return effects
    }

    // MARK: - Saving

    /// While Done's save waits for the store, what does not change the capture acts (its keys,
    /// the wheel, the photo highlighted); Esc explains that the save goes on and the work is
    /// safe; every other key is refused with a sentence. Nil: the action goes on.
    private mutating func sendWhileSaving(_ action: CaptureAction) -> [CaptureEffect]? {
        switch action {
        case let .commitFailed(message):
            saving = nil
            hideKeys()
            notice = message
            return []
        case let .saveWaited(token, seconds):
            guard saving?.token == token else { return [] }
            saving?.waitedSeconds = seconds
            return [.scheduleSaveTick(milliseconds: PendingSave.tickMilliseconds, token: token, seconds: seconds + 1)]
        case .keysToggled, .bodyScrolled:
            return nil
        case .textTyped("?") where !isShowingKeys:
            // Nothing is typed while saving: `?` shows the keys as it does outside a field.
            return send(.keysToggled)
        case let .cursorMoved(motion) where phase == .photos && (motion == .up || motion == .down):
            // The highlight only says which photo the viewer shows.
            return nil
        case .closeTapped, .closeConfirmed, .closeCancelled:
            return reply(.closeWaits)
        case .doneTapped:
            return reply(.alreadySaving)
        case .enterPressed where phase == .review:
            return reply(.alreadySaving)
        case _ where action.isUserInput:
            return reply(.captureLocked)
        default:
            // The submission is on its way; an answer to earlier work changes nothing now.
            return []
        }
    }

    /// A refused or explained key: its sentence on the message line for a few seconds.
    private mutating func reply(_ reply: PendingSave.Reply) -> [CaptureEffect] {
        hideKeys()
        guard var pending = saving else { return [] }
        pending.reply = reply
        pending.repliedAt = pending.waitedSeconds
        saving = pending
        return []
    }

    // MARK: - Overlays

    /// The list of keys closes on any key (Esc only closes it); the question before discarding
    /// takes only its answers. Nil: the action goes on.
    private mutating func sendToOverlay(_ action: CaptureAction) -> [CaptureEffect]? {
        switch overlay {
        case .keys where !action.isBackgroundResult:
            // The keys are showing: anything the key table sends closes them first (`?` and
            // Esc only close them).
            overlay = .none
            return action == .keysToggled || action == .closeTapped ? [] : nil
        case .keys:
            return nil
        case .none:
            if action == .keysToggled { overlay = .keys(scrollOffset: 0) }
            return action == .keysToggled ? [] : nil
        case .confirmingClose:
            if action == .keysToggled { return [] }
            guard !action.isBackgroundResult else { return nil }
            switch action {
            case .closeConfirmed: return [.dismiss]
            case .closeCancelled, .closeTapped:
                overlay = .none
                return []
            default: return []
            }
        }
    }

    // MARK: - Results of work, in any phase

    /// A timer's, the front end's, the catalog's or a copy's answer; nil for input.
    private mutating func receive(_ action: CaptureAction) -> [CaptureEffect]? {
        switch action {
        case let .codeSourceMeasured(source):
            codeSource = source
            return []
        case let .productLookedUp(barcode, product):
            productLookup = ProductLookup(barcode: barcode, product: product)
            return []
        case let .photoCodesRead(storedName, codes):
            return photoCodesRead(storedName, codes)
        case let .autoAdvanceElapsed(token):
            guard token == autoAdvanceToken, phase == .barcode, barcode != nil else { return [] }
            return advanceAfterScan()
        case let .pathCompleted(text, candidates):
            guard phase == .photos, copy == nil else { return [] }
            if let text {
                photoPath.clear()
                photoPath.insert(text)
            }
            photoMessage =
                candidates.count > 1 ? .information("Matches: " + candidates.prefix(8).joined(separator: "  ") + (candidates.count > 8 ? "  …" : "")) : nil
            return []
        case let .photoCopyProgressed(copied, total):
            guard copy != nil else { return [] }
            copy?.copiedBytes = copied
            copy?.totalBytes = total
            return []
        case let .photoStaged(photo):
            guard copy != nil else { return [] }
            copy = nil
            photos.append(photo)
            photoCursor = photos.count - 1
            photoPath.clear()
            photoMessage = nil
            notice = nil
            return []
        case let .photoStagingFailed(message):
            copy = nil
            photoMessage = .problem(message)
            return []
        case .commitFailed, .saveWaited:
            return []
        default:
            return nil
        }
    }

    /// Codes read from a staged photo: a Product without a scanned code takes the first.
    private mutating func photoCodesRead(_ storedName: String, _ codes: [String]) -> [CaptureEffect] {
        guard let photo = photos.first(where: { $0.storedName == storedName }) else { return [] }
        var options = config.scanOptions
        options.detectsLayout = false
        let found = codes.compactMap { try? BarcodeValidator.read($0, options: options).barcode.get() }
        guard !found.isEmpty else { return [] }
        photoCodes[storedName] = found
        if kind == .product, barcode == nil, let first = found.first {
            // A Product without a scanned code takes the one on its photo.
            barcode = first
            codeSource = .photo
            photoMessage = .information("Read \(first.symbology.title) \(first.summary) from \(photo.originalName).")
        } else {
            let list = found.map { "\($0.symbology.title) \($0.summary)" }.joined(separator: ", ")
            photoMessage = .information("Codes on \(photo.originalName): \(list).")
        }
        return []
    }

    // MARK: - Input, by phase (nil: what every phase does)

    private mutating func sendToPicker(_ action: CaptureAction) -> [CaptureEffect]? {
        switch action {
        case let .kindChosen(kind):
            guard kind.isAvailable else {
                notice = CaptureIncomplete.unavailable(kind).message
                return []
            }
            notice = nil
            start(kind)
            return []
        case let .pickerCursorMoved(delta):
            guard !pickerKinds.isEmpty else { return [] }
            pickerCursor = min(max(0, pickerCursor + delta), pickerKinds.count - 1)
            return []
        case .pickerConfirmed:
            guard pickerKinds.indices.contains(pickerCursor) else { return [] }
            return send(.kindChosen(pickerKinds[pickerCursor]))
        case .enterPressed:
            return send(.pickerConfirmed)
        case let .cursorMoved(motion):
            switch motion {
            case .up: return send(.pickerCursorMoved(by: -1))
            case .down: return send(.pickerCursorMoved(by: 1))
            case .home: pickerCursor = 0
            case .end: pickerCursor = max(0, pickerKinds.count - 1)
            case .left, .right: break
            }
            return []
        default:
            return nil
        }
    }

    private mutating func sendToBarcode(_ action: CaptureAction) -> [CaptureEffect]? {
        switch action {
        case let .textPasted(text) where barcode == nil || kind == .batch:
            return pasteCodes(text)
        case .enterPressed:
            return barcode == nil ? submitBarcode() : advanceAfterScan()
        case .backspacePressed where kind == .batch && barcodeInput.isEmpty:
            // An editing key never takes a scan: holding Backspace to clear a typo stops here.
            if !batch.isEmpty, let key = config.keyNames.removeScan {
                batchMessage = "The field is empty; \(key) removes the last scan."
            }
            return []
        case .skipTapped:
            guard kind == .product else { return [] }
            barcodeInput.clear()
            barcodeError = nil
            layoutHint = nil
            scanToast = nil
            autoAdvanceToken += 1
            phase = .photos
            return []
        default:
            return nil
        }
    }

    /// A paste into the code field: a batch takes a paste of many codes, one per line, as one
    /// scan each; otherwise the text is typed and submitted at once.
    private mutating func pasteCodes(_ text: String) -> [CaptureEffect] {
        if kind == .batch {
            let codes = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            if codes.count > 1 {
                for code in codes {
                    barcodeInput.clear()
                    barcodeInput.insert(code)
                    codeSource = .paste
                    _ = submitBarcode()
                    if barcodeError != nil { break }
                }
                return []
            }
        }
        barcodeInput.insert(text)
        codeSource = .paste
        return submitBarcode()
    }

    private mutating func sendToPhotos(_ action: CaptureAction) -> [CaptureEffect]? {
        switch action {
        case let .textPasted(text) where copy == nil:
            // A drag-and-drop paste is a whole path: take it at once.
            photoPath.clear()
            photoPath.insert(text)
            return submitPhotoPath()
        case .enterPressed:
            return copy == nil ? submitPhotoPath() : []
        case .deletePressed where photoPath.isEmpty:
            // An editing key never removes a photo: Del on the empty field only says which key does.
            if !photos.isEmpty, copy == nil, let key = config.keyNames.removePhoto {
                photoMessage = .information("The field is empty; \(key) removes the highlighted photo.")
            }
            return []
        case let .cursorMoved(motion) where motion == .up || motion == .down:
            guard !photos.isEmpty else { return [] }
            photoCursor = min(max(0, photoCursor + (motion == .up ? -1 : 1)), photos.count - 1)
            return []
        case .completionRequested:
            guard copy == nil else { return [] }
            return [.completePath(photoPath.text)]
        case .photoRemovalRequested:
            guard copy == nil, photos.indices.contains(photoCursor) else { return [] }
            let removed = photos.remove(at: photoCursor)
            photoCursor = max(0, min(photoCursor, photos.count - 1))
            return [.unstagePhoto(removed)]
        default:
            return nil
        }
    }

    private mutating func sendToNote(_ action: CaptureAction) -> [CaptureEffect]? {
        action == .enterPressed ? edit { $0.insert("\n") } : nil
    }

    private mutating func sendToReview(_ action: CaptureAction) -> [CaptureEffect]? {
        switch action {
        case .enterPressed:
            return send(.doneTapped)
        case .retakeTapped:
            guard collectsPhotos else { return [] }
            phase = .photos
            notice = nil
            return []
        default:
            return nil
        }
    }

    /// Input every phase takes alike: edits to the focused field, undo, Done and Close; a
    /// phase's own action sent in another phase does nothing.
    private mutating func sendToAnyPhase(_ action: CaptureAction) -> [CaptureEffect] {
        switch action {
        case let .textTyped(text), let .textPasted(text): return edit { $0.insert(text) }
        case .backspacePressed: return edit { $0.backspace() }
        case .deleteToLineStartPressed: return edit { $0.deleteToLineStart() }
        case .deletePressed: return edit { $0.deleteForward() }
        case let .cursorMoved(motion): return edit { $0.move(motion) }
        case .scanRemovalRequested: return removeLastScan()
        case .scanRestoreRequested: return restoreRemovedScan()
        case .doneTapped: return done()
        case .closeTapped:
            guard closeNeedsConfirmation else { return [.dismiss] }
            overlay = .confirmingClose
            return []
        case .closeConfirmed: return [.dismiss]
        default: return []
        }
    }

    /// Done: what the field holds is taken first; then the capture commits, or says what is missing.
    private mutating func done() -> [CaptureEffect] {
        if let held = takeFieldBeforeDone() { return held }
        switch submission {
        case let .success(submission):
            notice = nil
            hideKeys()
            saveToken += 1
            saving = PendingSave(token: saveToken)
            return [
                .commit(submission), .scheduleSaveTick(milliseconds: PendingSave.tickMilliseconds, token: saveToken, seconds: 1),
            ]
        case let .failure(reason):
            notice = reason.message
            return []
        }
    }

    /// Applies a text edit to the focused field, if any; clears stale messages.
    private mutating func edit(_ change: (inout TextBuffer) -> Void) -> [CaptureEffect] {
        switch phase {
        case .barcode where barcode == nil:
            change(&barcodeInput)
            barcodeError = nil
            layoutHint = nil
        case .note:
            change(&note)
        case .photos where copy == nil:
            change(&photoPath)
            photoMessage = nil
        default:
            return []
        }
        notice = nil
        return []
    }

    /// A batch: every valid scan is a line at once (or one more of a line), the field empties
    /// for the next, and no auto-advance.
    private mutating func addToBatch(_ code: Barcode) -> [CaptureEffect] {
        let line = batch.add(code)
        batchScrollOffset = 0  // the latest scan in view
        barcodeInput.clear()
        barcodeError = nil
        layoutHint = nil
        notice = nil
        batchMessage =
            line.quantity == 1
            ? "Added \(code.summary) (\(code.symbology.title))."
            : "\(code.summary) again: now \(line.quantity)."
        return []
    }

    /// The removal key in a batch: the last scan goes, and the undo key (named in the message)
    /// puts it back.
    private mutating func removeLastScan() -> [CaptureEffect] {
        guard kind == .batch else { return [] }
        batchScrollOffset = 0
        guard let removed = batch.removeLast() else {
            batchMessage = "No scan to remove."
            return []
        }
        removedScans.append(removed)
        let what =
            removed.quantityLeft == 0
            ? "Removed \(removed.barcode.summary)."
            : "Removed one \(removed.barcode.summary): now \(removed.quantityLeft)."
        batchMessage = what + (config.keyNames.restoreScan.map { " \($0) puts it back." } ?? "")
        notice = nil
        return []
    }

    /// The undo key in a batch: the scan removed last comes back at its place.
    private mutating func restoreRemovedScan() -> [CaptureEffect] {
        guard kind == .batch, let removed = removedScans.popLast() else { return [] }
        batch.restore(removed)
        batchScrollOffset = 0
        let quantity = batch.lines.first { $0.barcode == removed.barcode }?.quantity ?? 1
        batchMessage = quantity == 1 ? "Put back \(removed.barcode.summary)." : "Put back one \(removed.barcode.summary): now \(quantity)."
        notice = nil
        return []
    }

    private mutating func submitBarcode() -> [CaptureEffect] {
        let reading = BarcodeValidator.read(barcodeInput.text, options: config.scanOptions)
        if kind == .batch, case let .success(code) = reading.barcode { return addToBatch(code) }
        switch reading.barcode {
        case let .success(code):
            barcode = code
            barcodeError = nil
            layoutHint = nil
            notice = nil
            scanToast = code
            autoAdvanceToken += 1
            if config.autoAdvanceMilliseconds <= 0 {
                return advanceAfterScan()
            }
            return [.scheduleAutoAdvance(milliseconds: config.autoAdvanceMilliseconds, token: autoAdvanceToken)]
        case let .failure(error):
            barcodeError = error
            // A scanner set to another keyboard layout: say so, with the fix.
            layoutHint = reading.layoutMismatch?.message
            return []
        }
    }

    /// Done with text still in the focused field: Done never drops it. A code that reads is
    /// taken as Enter would take it (a batch's next scan, a Barcode's or Product's code) and
    /// Done goes on (nil); one that does not keeps the capture open with its sentence; a typed
    /// photo path is staged, and Done waits for it to be added.
    private mutating func takeFieldBeforeDone() -> [CaptureEffect]? {
        switch phase {
        case .barcode where barcode == nil || kind == .batch:
            guard !barcodeInput.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
            let reading = BarcodeValidator.read(barcodeInput.text, options: config.scanOptions)
            switch reading.barcode {
            case let .success(code) where kind == .batch:
                _ = addToBatch(code)
            case let .success(code):
                barcode = code
                barcodeError = nil
                layoutHint = nil
                _ = advanceAfterScan()
            case let .failure(error):
                barcodeError = error
                layoutHint = reading.layoutMismatch?.message
                notice = nil
                return []
            }
            return nil
        case .photos where copy == nil:
            guard !photoPath.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
            let effects = submitPhotoPath()
            if copy != nil { notice = CaptureIncomplete.typedPhotoFirst.message }
            return effects
        default:
            return nil
        }
    }

    private mutating func advanceAfterScan() -> [CaptureEffect] {
        scanToast = nil
        autoAdvanceToken += 1
        phase = kind == .product ? .photos : .review
        return []
    }

    /// Enter in the photo field: stage the typed path, or move on to review when it is empty.
    private mutating func submitPhotoPath() -> [CaptureEffect] {
        let text = photoPath.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            if photos.isEmpty {
                photoMessage = "Type or paste the path of an image file; Tab completes."
                return []
            }
            phase = .review
            photoMessage = nil
            return []
        }
        guard photos.count < config.maximumPhotos else {
            photoMessage = .problem(
                "This capture holds at most \(config.maximumPhotos) photos; remove one first" + (config.keyNames.removePhoto.map { " (\($0))." } ?? "."))
            return []
        }
        photoMessage = nil
        copy = PhotoCopy(name: (text as NSString).lastPathComponent)
        return [.stagePhoto(path: text)]
    }
}
