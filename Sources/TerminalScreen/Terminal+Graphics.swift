import CCrashGuard
import CNcursesw
import Domain
import Glibc
import Render
import TabShell
import TerminalInput

/// Graphics pictures (sixel, kitty, iTerm2) placed after the frame, and the terminal's answers
/// to the questions about them.
extension Terminal {
    // MARK: - Graphics pictures

    /// Before the cells of a frame are drawn: takes away the pictures on screen that the frame
    /// no longer has where they are, and returns those to draw once the cells are out. Idle
    /// frames place nothing: a picture that stays is not sent again.
    ///
    /// kitty keeps pictures on a layer of their own, so they are deleted (by a cell they cover).
    /// A sixel or iTerm2 picture is paint over cells that curses believes hold blanks: its
    /// lines are marked garbled so the update writes them again, over the picture. When every
    /// cell is drawn again (a resize, Ctrl-L, back from Ctrl-Z, a change of colour) every
    /// picture goes and comes back.
    func imagesToPlace(_ images: [FrameImage], repaintingAll: Bool) -> [FrameImage] {
        let window = ts_stdscr()
        if screenIsGarbled {
            removeKittyImages()
            placedImages = []
        }
        let keptKitty = repaintingAll ? [] : placedImages.filter { $0.picture.graphics == .kitty && images.contains($0) }
        let kept = repaintingAll ? keptKitty : placedImages.filter { images.contains($0) }
        for image in placedImages where !kept.contains(image) {
            switch image.picture.graphics {
            case .kitty:
                if !keptKitty.contains(image) { writeToTTY(Self.kittyDeletion(at: image)) }
            case .sixel, .iterm2:
                wredrawln(window, Int32(image.row), Int32(image.size.rows))
            }
        }
        placedImages = images
        return images.filter { !kept.contains($0) }
    }

    /// Save the cursor, move to the picture's corner, draw it, put the cursor back (so curses'
    /// idea of where the cursor is stays true).
    static func placement(of image: FrameImage) -> String {
        "\u{1B}7\u{1B}[\(image.row + 1);\(image.column + 1)H" + image.picture.sequence + "\u{1B}8"
    }

    /// kitty: delete the placements (and free the data) of the pictures covering a cell.
    private static func kittyDeletion(at image: FrameImage) -> String {
        "\u{1B}_Ga=d,d=P,x=\(image.column + 1),y=\(image.row + 1),q=2\u{1B}\\"
    }

    /// kitty: delete every picture we placed (leaving the screen, Ctrl-Z, a garbled screen).
    func removeKittyImages() {
        guard placedImages.contains(where: { $0.picture.graphics == .kitty }) else { return }
        writeToTTY("\u{1B}_Ga=d,d=A,q=2\u{1B}\\")
        placedImages.removeAll { $0.picture.graphics == .kitty }
    }

    // MARK: - Asking about graphics

    /// Writes `TerminalQuery` and returns at once: nothing is read here, so the first frame
    /// is drawn without waiting for the terminal (a round trip over SSH; forever on a terminal
    /// that answers nothing). The answers arrive among the keys, which the input decoder tells
    /// apart; once the last one is in, `nextEvent` reports them as `.terminalAnswered`, in
    /// order with the keys typed before and after them.
    ///
    /// `knownBackground` is the background the environment already says (`COLORFGBG`): the
    /// theme follows it from the first frame and the terminal is not asked for it; nor is it
    /// when `needsBackground` is false (no colour is drawn).
    public func askAboutGraphics(knownBackground: BackgroundColor? = nil, needsBackground: Bool = true) {
        guard screen != nil else { return }
        answers.background = knownBackground
        writeToTTY(TerminalQuery.text(askingBackground: needsBackground && knownBackground == nil))
        awaitingAnswers = true
    }

    /// The cell size from the tty's window size in pixels, when the terminal fills it in.
    public var windowCellPixels: CellPixels? {
        var width: Int32 = 0, height: Int32 = 0
        guard ts_tty_pixels(ttyDescriptor, &width, &height) == 0, ts_cols() > 0, ts_lines() > 0 else { return nil }
        return CellPixels(width: Int(width / ts_cols()), height: Int(height / ts_lines()))
    }

    /// An answer to the graphics queries; others (nobody asked) are dropped.
    func take(_ reply: String) {
        guard awaitingAnswers, answers.take(reply), answers.isComplete else { return }
        awaitingAnswers = false
        pending.append(.terminalAnswered(answers))
    }

    /// A cell must be written again when it changed, or when the cell after it changed and
    /// either version of that cell is the right half of a wide character (the pair is one unit).
    static func cellChanged(at row: Int, _ column: Int, from old: Grid, to new: Grid) -> Bool {
        if old[row, column] != new[row, column] { return true }
        guard column + 1 < new.width else { return false }
        let oldNext = old[row, column + 1], newNext = new[row, column + 1]
        return oldNext != newNext && (oldNext.isContinuation || newNext.isContinuation)
    }
}
