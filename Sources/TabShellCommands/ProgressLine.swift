import Foundation

/// A one-line progress report on a terminal's standard error, redrawn at most every 1/10 s.
public final class ProgressLine {
    private let errors: any TextOutput
    private var lastDraw = ContinuousClock.now - .seconds(1)

    public init(errors: any TextOutput) {
        self.errors = errors
    }

    public func update(done: Int, total: Int) {
        guard done == total || done % 1024 == 0 else { return }
        let now = ContinuousClock.now
        guard done == total || now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = now
        let percent = total > 0 ? done * 100 / total : 100
        try? errors.write("\rExporting \(done) of \(total) records (\(percent)%)")
        try? errors.finish()
    }

    public func clear() {
        try? errors.write("\r\u{1B}[K")
        try? errors.finish()
    }
}
