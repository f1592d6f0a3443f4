import CaptureMode
import Domain
import Foundation
import TabShell
import Testing

@testable import Render

/// The review and batch screens drawn scrolled by the wheel; unscrolled they are
/// the reviewed goldens.
@Suite struct CaptureScrollTests {
    static let size = ScreenSize(rows: 12, columns: 40)

    static func frame(_ build: (inout CaptureState) -> Void) -> String {
        let capture = Demo.capture(build)
        var state = Demo.state(presentation: capture)
        state.size = size
        return Screen.render(state, options: Demo.options).grid.text
    }

    @Test func reviewScrolledShowsLaterLinesOfTheNote() {
        let note = (1...30).map { "line \($0)" }.joined(separator: "\n")
        func review(_ offset: Int) -> String {
            Self.frame {
                $0 = CaptureState(config: CaptureConfig(), request: nil, kind: .note, phase: .review, barcode: nil, note: note, photos: [])
                $0.reviewScrollOffset = offset
            }
        }
        let top = review(0), scrolled = review(5)
        #expect(top.contains("line 1\n") || top.contains("line 1 "))
        #expect(!top.contains("line 9 "))
        #expect(scrolled.contains("line 5"))
        #expect(!scrolled.contains("Kind"), "the first rows scrolled away")
        #expect(review(1000) == review(1000) && review(1000).contains("line 30"), "never past the end")
    }

    @Test func batchScrolledShowsOlderLines() {
        let lines = (1...20).map { BatchLine(barcode: Barcode(value: "CODE-\($0)", symbology: .freeText)) }
        func batch(_ offset: Int) -> String {
            Self.frame {
                $0 = CaptureState(config: CaptureConfig(), request: nil, kind: .batch, phase: .barcode, barcode: nil, note: nil, photos: [], lines: lines)
                $0.batchScrollOffset = offset
            }
        }
        #expect(batch(0).contains("CODE-20"))
        #expect(!batch(0).contains("CODE-1 "))
        let scrolled = batch(19)
        #expect(scrolled.contains("CODE-1 ") || scrolled.contains("CODE-1\n"))
        #expect(!scrolled.contains("CODE-20"))
    }
}
