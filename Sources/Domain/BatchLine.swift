import Foundation

/// One code of a batch capture (stock-take, receiving) and how many times it was scanned.
public struct BatchLine: Codable, Equatable, Hashable, Sendable {
    public var barcode: Barcode
    public var quantity: Int

    public init(barcode: Barcode, quantity: Int = 1) {
        self.barcode = barcode
        self.quantity = quantity
    }
}

/// The lines of a batch in scan order, and the order of the scans themselves so the last one
/// can be undone exactly (a repeat scan only takes its count back).
public struct BatchLines: Codable, Equatable, Hashable, Sendable {
    public private(set) var lines: [BatchLine] = []
    /// The line each scan went to, oldest first.
    public private(set) var scans: [Int] = []

    public init() {}

    public init(lines: [BatchLine]) {
        self.lines = lines
        self.scans = lines.indices.flatMap { index in Array(repeating: index, count: max(1, lines[index].quantity)) }
    }

    public var isEmpty: Bool { lines.isEmpty }
    /// Every scan, repeats included.
    public var scanCount: Int { scans.count }

    /// Adds a scan: a new line, or one more of a code already in the batch. Returns the line.
    @discardableResult
    public mutating func add(_ barcode: Barcode) -> BatchLine {
        if let index = lines.firstIndex(where: { $0.barcode == barcode }) {
            lines[index].quantity += 1
            scans.append(index)
            return lines[index]
        }
        lines.append(BatchLine(barcode: barcode))
        scans.append(lines.count - 1)
        return lines[lines.count - 1]
    }

    /// Takes the last scan back: its line's count drops, and a line at zero goes. Returns what
    /// was undone, nil when the batch is empty.
    @discardableResult
    public mutating func undoLast() -> BatchLine? {
        guard let index = scans.popLast(), lines.indices.contains(index) else { return nil }
        lines[index].quantity -= 1
        let undone = lines[index]
        if lines[index].quantity == 0 {
            lines.remove(at: index)
            scans = scans.map { $0 > index ? $0 - 1 : $0 }
        }
        return undone
    }

    /// Removes the last scan, as Ctrl-X does: its line's count drops, and a line at zero goes.
    /// Returns what ``restore(_:)`` needs to put it back at its place; nil when the batch is empty.
    public mutating func removeLast() -> RemovedScan? {
        guard let index = scans.last, lines.indices.contains(index) else { return nil }
        let removed = RemovedScan(barcode: lines[index].barcode, lineIndex: index, scanIndex: scans.count - 1, quantityLeft: lines[index].quantity - 1)
        undoLast()
        return removed
    }

    /// Puts a removed scan back at its place: one more of its line, or its line again where it
    /// was (the scans after it keep their order). A code scanned again since counts on its line.
    public mutating func restore(_ removed: RemovedScan) {
        let lineIndex: Int
        if let existing = lines.firstIndex(where: { $0.barcode == removed.barcode }) {
            lines[existing].quantity += 1
            lineIndex = existing
        } else {
            lineIndex = min(max(0, removed.lineIndex), lines.count)
            scans = scans.map { $0 >= lineIndex ? $0 + 1 : $0 }
            lines.insert(BatchLine(barcode: removed.barcode), at: lineIndex)
        }
        scans.insert(lineIndex, at: min(max(0, removed.scanIndex), scans.count))
    }

    /// "5 codes, 12 scans": codes first, as History and `history list` say it.
    public var summary: String {
        let scansText = scanCount == 1 ? "1 scan" : "\(scanCount) scans"
        let codesText = lines.count == 1 ? "1 code" : "\(lines.count) codes"
        return "\(codesText), \(scansText)"
    }
}

/// A scan Ctrl-X took out of a batch, and where it was, so it can be put back.
public struct RemovedScan: Codable, Equatable, Hashable, Sendable {
    public var barcode: Barcode
    /// Its line's place in the batch.
    public var lineIndex: Int
    /// Its place among the scans.
    public var scanIndex: Int
    /// How many of its code the batch holds without it (0: its line went too).
    public var quantityLeft: Int
}
