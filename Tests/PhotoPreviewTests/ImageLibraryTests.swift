import CImageStack
import PhotoPreview
import Testing

/// The image stack is opened on first use (CImageStack). Whether a process that shows
/// no photo maps it is held end to end (EndToEndTests: ImageStackOnDemandEndToEndTests).
@Suite struct ImageLibraryTests {
    @Test func everyLibraryLoadsFromManyThreadsAtOnce() async {
        let failures = await withTaskGroup(of: [ImageLibraryMissing].self) { group in
            for _ in 0..<16 {
                group.addTask {
                    var failed: [ImageLibraryMissing] = []
                    for library in ImageLibrary.allCases {
                        do throws(ImageLibraryMissing) {
                            try library.load()
                        } catch {
                            failed.append(error)
                        }
                    }
                    return failed
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures.isEmpty)
    }

    @Test func aMissingLibraryNamesItsPackageInOneSentence() {
        let detail = "libvips.so.42: cannot open shared object file: No such file or directory"
        let failure = VipsFailure.error(status: TSV_LIBRARY_MISSING.rawValue, message: detail)
        #expect(failure == .libraryMissing(ImageLibraryMissing(library: .vips, detail: detail)))
        #expect(failure.sentence == "Photo previews need libvips (package libvips42).")
        #expect(failure.detail == detail)
        let chafa = PreviewError.libraryMissing(ImageLibraryMissing(library: .chafa, detail: "gone"))
        #expect(chafa.sentence == "Photo previews need libchafa (package libchafa0).")
    }
}
