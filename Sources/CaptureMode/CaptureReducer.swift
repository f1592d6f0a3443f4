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
        if case .keysToggled = action {
            isShowingKeys.toggle()
            keysScrollOffset = 0
            return []
        }
        if isShowingKeys, !action.isBackgroundResult {
            // The keys are showing: anything the key table sends closes them first.
            isShowingKeys = false
            if case .closeTapped = action { return [] }
        }
        if isConfirmingClose, !action.isBackgroundResult {
            switch action {
            case .closeConfirmed: return [.dismiss]
            case .closeCancelled, .closeTapped:
                isConfirmingClose = false
                return []
            default: return []
            }
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
            if phase == .photos, copy == nil {
                // A drag-and-drop paste is a whole path: take it at once.
                photoPath.clear()
                photoPath.insert(text)
                return submitPhotoPath()
            }
            guard phase == .barcode, barcode == nil || kind == .batch else { return edit { $0.insert(text) } }
            if kind == .batch {
                // A paste of many codes, one per line: each line is a scan.
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

        case .enterPressed:
            switch phase {
            case .picker: return send(.pickerConfirmed)
            case .barcode: return barcode == nil ? submitBarcode() : advanceAfterScan()
            case .photos: return copy == nil ? submitPhotoPath() : []
            case .note: return edit { $0.insert("\n") }
            case .review: return send(.doneTapped)
            }

        case .backspacePressed:
            if kind == .batch, phase == .barcode, barcodeInput.isEmpty { return undoLastScan() }
            return edit { $0.backspace() }

        case let .codeSourceMeasured(source):
            codeSource = source
            return []

        case .undoScanTapped:
            return undoLastScan()

        case let .productLookedUp(barcode, product):
            productLookup = ProductLookup(barcode: barcode, product: product)
            return []

        case let .photoCodesRead(storedName, codes):
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

        case .deleteToLineStartPressed:
            return edit { $0.deleteToLineStart() }

        case .deletePressed:
            if phase == .photos, photoPath.isEmpty { return send(.photoRemovalRequested) }
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
            if phase == .photos, motion == .up || motion == .down {
                guard !photos.isEmpty else { return [] }
                photoCursor = min(max(0, photoCursor + (motion == .up ? -1 : 1)), photos.count - 1)
                return []
            }
            return edit { $0.move(motion) }

        case let .autoAdvanceElapsed(token):
            guard token == autoAdvanceToken, phase == .barcode, barcode != nil else { return [] }
            return advanceAfterScan()

        case .skipTapped:
            guard phase == .barcode, kind == .product else { return [] }
            barcodeInput.clear()
            barcodeError = nil
            layoutHint = nil
            scanToast = nil
            autoAdvanceToken += 1
            phase = .photos
            return []

        case .retakeTapped:
            guard phase == .review, collectsPhotos else { return [] }
            phase = .photos
            notice = nil
            return []

        case .completionRequested:
            guard phase == .photos, copy == nil else { return [] }
            return [.completePath(photoPath.text)]

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

        case .photoRemovalRequested:
            guard phase == .photos, copy == nil, photos.indices.contains(photoCursor) else { return [] }
            let removed = photos.remove(at: photoCursor)
            photoCursor = max(0, min(photoCursor, photos.count - 1))
            return [.unstagePhoto(removed)]

        case .doneTapped:
            if let held = takeFieldBeforeDone() { return held }
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
            if closeNeedsConfirmation {
                isConfirmingClose = true
                return []
            }
            return [.dismiss]

        case .closeConfirmed:
            return [.dismiss]

        case .closeCancelled, .commitFailed, .keysToggled:
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

    /// Backspace on the empty field of a batch (or Ctrl-Z): the last scan is taken back.
    private mutating func undoLastScan() -> [CaptureEffect] {
        guard let undone = batch.undoLast() else {
            batchMessage = "Nothing to undo."
            return []
        }
        batchMessage =
            undone.quantity == 0
            ? "Took back \(undone.barcode.summary)."
            : "Took back one \(undone.barcode.summary): now \(undone.quantity)."
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
            photoMessage = "This capture holds at most \(config.maximumPhotos) photos; remove one first (Del)."
            return []
        }
        photoMessage = nil
        copy = PhotoCopy(name: (text as NSString).lastPathComponent)
        return [.stagePhoto(path: text)]
    }
}
