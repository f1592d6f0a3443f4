import CaptureMode
import Domain
import Testing

@Suite struct PhotosFlowTests {
    let photo = StagedPhoto(storedName: "0A.png", originalName: "shelf.png", format: .png, pixelWidth: 640, pixelHeight: 480, byteSize: 2048)

    func photosCapture(maximumPhotos: Int = 3) -> CaptureState {
        CaptureState(config: CaptureConfig(maximumPhotos: maximumPhotos), request: CaptureRequestLink(id: 1, title: "Shoot", kind: .photos))
    }

    @Test func aPhotosRequestStartsInThePhotosPhase() {
        #expect(photosCapture().phase == .photos)
        #expect(photosCapture().isEditingText)
    }

    @Test func enterWithAPathAsksToStageItAndShowsTheCopy() {
        var capture = photosCapture()
        _ = capture.send(.textTyped("~/shelf.png"))
        #expect(capture.send(.enterPressed) == [.stagePhoto(path: "~/shelf.png")])
        #expect(capture.copy?.name == "shelf.png")
        #expect(!capture.isEditingText, "input waits while a copy runs")
        _ = capture.send(.photoCopyProgressed(copiedBytes: 512, totalBytes: 2048))
        #expect(capture.copy?.fraction == 0.25)
        _ = capture.send(.photoStaged(photo))
        #expect(capture.photos == [photo])
        #expect(capture.copy == nil)
        #expect(capture.photoPath.isEmpty)
    }

    @Test func aPastedPathIsStagedAtOnce() {
        var capture = photosCapture()
        #expect(capture.send(.textPasted("'/tmp/a b.png'\n")) == [.stagePhoto(path: "'/tmp/a b.png'")])
    }

    @Test func aRefusedFileShowsWhyAndStagesNothing() {
        var capture = photosCapture()
        _ = capture.send(.textTyped("/etc"))
        _ = capture.send(.enterPressed)
        _ = capture.send(.photoStagingFailed("/etc is a directory, not an image file."))
        #expect(capture.photos.isEmpty)
        #expect(capture.photoMessage == "/etc is a directory, not an image file.")
        #expect(capture.copy == nil)
    }

    @Test func doneWithoutPhotosStaysAndSaysWhy() {
        var capture = photosCapture()
        #expect(capture.send(.doneTapped).isEmpty)
        #expect(capture.notice == CaptureIncomplete.noPhotos.message)
        #expect(!capture.isCommitting)
    }

    @Test func doneWithAPhotoCommitsItWithTheRequest() {
        var capture = photosCapture()
        _ = capture.send(.textTyped("a.png"))
        _ = capture.send(.enterPressed)
        _ = capture.send(.photoStaged(photo))
        #expect(capture.send(.doneTapped) == [.commit(CaptureSubmission(kind: .photos, requestID: 1, photos: [photo])), .firstSaveTick()])
    }

    @Test func doneWhileCopyingIsRefused() {
        var capture = photosCapture()
        _ = capture.send(.textTyped("a.png"))
        _ = capture.send(.enterPressed)
        #expect(capture.send(.doneTapped).isEmpty)
        #expect(capture.notice == CaptureIncomplete.copyInProgress.message)
    }

    @Test func theLimitIsEnforcedBeforeCopying() {
        var capture = photosCapture(maximumPhotos: 1)
        _ = capture.send(.textTyped("a.png"))
        _ = capture.send(.enterPressed)
        _ = capture.send(.photoStaged(photo))
        _ = capture.send(.textTyped("b.png"))
        #expect(capture.send(.enterPressed).isEmpty)
        #expect(capture.photoMessage?.text.contains("at most 1") == true)
    }

    @Test func theRemovalKeyRemovesTheHighlightedPhoto() {
        var capture = photosCapture()
        _ = capture.send(.textTyped("a.png"))
        _ = capture.send(.enterPressed)
        _ = capture.send(.photoStaged(photo))
        #expect(capture.send(.deletePressed) == [], "Del only edits the path (RemovalKeysTests)")
        #expect(capture.send(.photoRemovalRequested) == [.unstagePhoto(photo)])
        #expect(capture.photos.isEmpty)
    }

    @Test func closeWithStagedPhotosAsksFirst() {
        var capture = photosCapture()
        _ = capture.send(.textTyped("a.png"))
        _ = capture.send(.enterPressed)
        _ = capture.send(.photoStaged(photo))
        #expect(capture.send(.closeTapped).isEmpty)
        #expect(capture.isConfirmingClose)
        #expect(capture.send(.closeCancelled).isEmpty)
        #expect(!capture.isConfirmingClose)
        _ = capture.send(.closeTapped)
        #expect(capture.send(.closeConfirmed) == [.dismiss])
    }

    /// A photo still being copied in is work: Close asks before cancelling it.
    @Test func closeDuringACopyWithNothingStagedAsksFirst() {
        var capture = photosCapture()
        _ = capture.send(.textTyped("a.png"))
        _ = capture.send(.enterPressed)
        #expect(capture.send(.closeTapped).isEmpty)
        #expect(capture.isConfirmingClose)
        #expect(capture.collectedWork == ["the photo being added"])
        #expect(capture.send(.closeConfirmed) == [.dismiss])
    }

    @Test func productScansThenPhotosAndSkipGoesStraightToPhotos() {
        var capture = CaptureState(config: CaptureConfig(autoAdvanceMilliseconds: 0), request: CaptureRequestLink(id: 2, title: "Beans", kind: .product))
        #expect(capture.phase == .barcode)
        _ = capture.send(.textPasted("4006381333931"))
        #expect(capture.phase == .photos, "a product goes on to photos after the scan")

        var skipped = CaptureState(request: CaptureRequestLink(id: 2, title: "Beans", kind: .product))
        _ = skipped.send(.skipTapped)
        #expect(skipped.phase == .photos)
        #expect(skipped.barcode == nil)
    }

    @Test func retakeGoesBackFromReviewToPhotos() {
        var capture = photosCapture()
        _ = capture.send(.textTyped("a.png"))
        _ = capture.send(.enterPressed)
        _ = capture.send(.photoStaged(photo))
        _ = capture.send(.enterPressed)
        #expect(capture.phase == .review, "Enter on an empty field moves on to review")
        _ = capture.send(.retakeTapped)
        #expect(capture.phase == .photos)
        #expect(capture.photos == [photo])
    }

    @Test func completionReplacesTheFieldOrListsCandidates() {
        var capture = photosCapture()
        _ = capture.send(.textTyped("~/Pi"))
        #expect(capture.send(.completionRequested) == [.completePath("~/Pi")])
        _ = capture.send(.pathCompleted(text: "~/Pictures/", candidates: []))
        #expect(capture.photoPath.text == "~/Pictures/")
        _ = capture.send(.pathCompleted(text: nil, candidates: ["a.png", "b.png"]))
        #expect(capture.photoMessage == .information("Matches: a.png  b.png"), "matches are information, not an error")
    }
}

@Suite struct PathInputTests {
    @Test(arguments: [
        ("/tmp/a.png", "/tmp/a.png"),
        ("  /tmp/a.png\n", "/tmp/a.png"),
        ("'/tmp/my photo.png'", "/tmp/my photo.png"),
        ("\"/tmp/my \\\"q\\\" photo.png\"", "/tmp/my \"q\" photo.png"),
        ("/tmp/my\\ photo.png", "/tmp/my photo.png"),
        ("file:///tmp/my%20photo.png", "/tmp/my photo.png"),
        ("~/a.png", "/home/ana/a.png"),
        ("~", "/home/ana"),
        ("relative/a.png", "relative/a.png"),
    ])
    func resolvesWhatTerminalsPaste(input: String, expected: String) {
        #expect(PathInput.resolve(input, home: "/home/ana") == expected)
    }

    @Test func refusesNothingAndOtherSchemes() {
        #expect(PathInput.resolve("   ", home: "/h") == nil)
        #expect(PathInput.resolve("https://example.com/a.png", home: "/h") == nil)
    }

    @Test func completionQuerySplitsDirectoryAndPrefix() {
        #expect(PathInput.completionQuery("~/Pic", home: "/home/ana")! == ("/home/ana/", "Pic"))
        #expect(PathInput.completionQuery("/tmp/", home: "/h")! == ("/tmp/", ""))
    }

    @Test func commonCompletionExtendsOnlyWhenItAddsSomething() {
        #expect(PathInput.commonCompletion(of: ["photo1.png", "photo2.png", "other"], prefix: "ph") == "photo")
        #expect(PathInput.commonCompletion(of: ["a.png", "b.png"], prefix: "") == nil)
        #expect(PathInput.commonCompletion(of: [], prefix: "x") == nil)
    }
}
