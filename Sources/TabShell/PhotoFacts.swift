import CaptureMode
import Domain
import Foundation

/// How a photo's facts read in lists: "PNG · 1024×768 · 2.1 MB".
public enum PhotoFacts {
    /// Where a watcher would see a photo: a watcher is sent the facts, not the file.
    public static let notShownToWatchers = "Photos are not shown to watchers; the facts are below."
    public static func describe(_ photo: StagedPhoto, glyphs: Glyphs) -> String {
        describe(format: photo.format, width: photo.pixelWidth, height: photo.pixelHeight, bytes: photo.byteSize, glyphs: glyphs)
    }

    public static func describe(_ photo: RecordPhoto, glyphs: Glyphs) -> String {
        describe(format: photo.format, width: photo.pixelWidth, height: photo.pixelHeight, bytes: photo.byteSize, glyphs: glyphs)
    }

    public static func describe(_ photo: ViewerPhoto, glyphs: Glyphs) -> String {
        describe(format: photo.format, width: photo.pixelWidth, height: photo.pixelHeight, bytes: photo.byteSize, glyphs: glyphs)
    }

    private static func describe(format: ImageFormat, width: Int, height: Int, bytes count: Int64, glyphs: Glyphs) -> String {
        let times = glyphs == .unicode ? "×" : "x"
        let pixels = width > 0 ? "\(width)\(times)\(height)" : "size unknown"
        return [format.title, pixels, bytes(count)].joined(separator: glyphs.separator)
    }

    /// Decimal units, one decimal place above 1 kB: "812 B", "14.2 kB", "2.1 MB".
    public static func bytes(_ count: Int64) -> String {
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
