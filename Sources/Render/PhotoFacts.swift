import CaptureMode
import Foundation

/// How a photo's facts read in lists: "PNG · 1024×768 · 2.1 MB".
enum PhotoFacts {
    static func describe(_ photo: StagedPhoto, context: RenderContext) -> String {
        let times = context.glyphs == .unicode ? "×" : "x"
        let pixels = photo.pixelWidth > 0 ? "\(photo.pixelWidth)\(times)\(photo.pixelHeight)" : "size unknown"
        return [photo.format.title, pixels, bytes(photo.byteSize)].joined(separator: context.glyphs.separator)
    }

    /// Decimal units, one decimal place above 1 kB: "812 B", "14.2 kB", "2.1 MB".
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }
}
