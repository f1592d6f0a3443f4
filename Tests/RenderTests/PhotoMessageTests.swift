import CaptureMode
import Foundation
import TabShell
import Testing

@testable import Render

/// The line under the photo field: Tab's list of matches is information, drawn plainly; a
/// refused file is a problem, with the error mark.
@Suite struct PhotoMessageTests {
    static func frame(_ message: PhotoMessage, unicode: Bool = true) -> Frame {
        let presentation = Demo.capture {
            _ = $0.send(.kindChosen(.photos))
            $0.photoMessage = message
        }
        let state = Demo.state(.inbox, presentation: presentation)
        return Screen.render(state, options: unicode ? Demo.options : Demo.plainOptions)
    }

    @Test func matchesAreNotAnError() throws {
        let frame = Self.frame(.information("Matches: shelf.png  shelf-2.png"))
        let position = try #require(frame.find("Matches: shelf.png"))
        #expect(frame.find("✗") == nil, "no error mark on a list of matches")
        #expect(frame.grid[position.row, position.column].style != .error)
        #expect(Self.frame(.information("Matches: a.png  b.png"), unicode: false).find("! Matches") == nil)
    }

    @Test func aRefusedFileIsOne() throws {
        let frame = Self.frame(.problem("/etc is a directory, not an image file."))
        let position = try #require(frame.find("✗ /etc is a directory"))
        #expect(frame.grid[position.row, position.column].style == .error)
    }
}
