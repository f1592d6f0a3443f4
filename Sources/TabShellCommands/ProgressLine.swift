import Foundation

/// A one-line progress report on a terminal's standard error, redrawn at most every 1/10 s.
struct ProgressLine {
    let errors: any TextOutput
    var lastDraw = ContinuousClock.now - .seconds(1)

    mutating func update(done: Int, total: Int) {
        guard done == total || done % 1024 == 0 else { return }
        let now = ContinuousClock.now
        guard done == total || now - lastDraw >= .milliseconds(100) else { return }
        lastDraw = now
        let percent = total > 0 ? done * 100 / total : 100
        try? errors.write("\rExporting \(done) of \(total) records (\(percent)%)")
        try? errors.finish()
    }

    func clear() {
        try? errors.write("\r\u{1B}[K")
        try? errors.finish()
    }
}
