import CImageStack
import Foundation
import TestSupport

struct SampleImageError: Error, CustomStringConvertible {
    let description: String
}

/// 8-bit pixels to draw test images on: 1 band (grey), 3 (RGB) or 4 (RGBA), rows packed.
struct Canvas {
    let width: Int
    let height: Int
    let bands: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, bands: Int = 1, fill: UInt8 = 255) {
        self.width = width
        self.height = height
        self.bands = bands
        pixels = Array(repeating: fill, count: width * height * bands)
    }

    /// Every band of the rectangle set to `value` (clipped to the canvas).
    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, value: UInt8) {
        fill(x: x, y: y, width: w, height: h, color: Array(repeating: value, count: bands))
    }

    mutating func fill(x: Int, y: Int, width w: Int, height h: Int, color: [UInt8]) {
        precondition(color.count == bands)
        for row in max(0, y)..<min(height, y + h) {
            for column in max(0, x)..<min(width, x + w) {
                let start = (row * width + column) * bands
                pixels.replaceSubrange(start..<start + bands, with: color)
            }
        }
    }

    /// Bars of a linear code: `modules` from the left at `moduleWidth` pixels each.
    mutating func drawBars(_ modules: [Bool], x: Int, y: Int, moduleWidth: Int, barHeight: Int, color: [UInt8]? = nil) {
        for (index, isBar) in modules.enumerated() where isBar {
            fill(x: x + index * moduleWidth, y: y, width: moduleWidth, height: barHeight, color: color ?? Array(repeating: 0, count: bands))
        }
    }

    mutating func drawQR(_ code: QRCode, x: Int, y: Int, moduleSize: Int) {
        for row in 0..<code.size {
            for column in 0..<code.size where code[column, row] {
                fill(x: x + column * moduleSize, y: y + row * moduleSize, width: moduleSize, height: moduleSize, value: 0)
            }
        }
    }

    /// A white label with the given canvas drawn on it, pasted at (x, y).
    mutating func paste(_ other: Canvas, x: Int, y: Int) {
        for row in 0..<other.height where (0..<height).contains(y + row) {
            for column in 0..<other.width where (0..<width).contains(x + column) {
                let source = (row * other.width + column) * other.bands
                let target = ((y + row) * width + x + column) * bands
                for band in 0..<bands {
                    pixels[target + band] = other.pixels[source + min(band, other.bands - 1)]
                }
            }
        }
    }

    /// Turned a quarter clockwise.
    func rotatedClockwise() -> Canvas {
        var turned = Canvas(width: height, height: width, bands: bands)
        for row in 0..<height {
            for column in 0..<width {
                let source = (row * width + column) * bands
                let target = (column * turned.width + (height - 1 - row)) * bands
                for band in 0..<bands { turned.pixels[target + band] = pixels[source + band] }
            }
        }
        return turned
    }

    /// Smooth gradients plus deterministic noise: compresses and scans like a photo, not like
    /// a flat area (RGB).
    static func photoLike(width: Int, height: Int, seed: UInt64 = 1) -> Canvas {
        var canvas = Canvas(width: width, height: height, bands: 3)
        var random = SplitMix64(seed: seed)
        canvas.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 3
                    let noise = Int(random.next() & 31)
                    pixels[index] = UInt8(truncatingIfNeeded: min(255, x * 128 / width + noise + 60))
                    pixels[index + 1] = UInt8(truncatingIfNeeded: min(255, y * 128 / height + noise + 40))
                    pixels[index + 2] = UInt8(truncatingIfNeeded: min(255, (x + y) * 128 / (width + height) + noise))
                }
            }
        }
        return canvas
    }

    /// Saves with libvips; the suffix picks the format and options may follow in brackets, as
    /// in "photo.jpg[Q=85]".
    @discardableResult
    func save(as name: String, in folder: URL) throws -> URL {
        let target = folder.appendingPathComponent(name)
        var message = [CChar](repeating: 0, count: 512)
        let status = pixels.withUnsafeBufferPointer { buffer in
            tsv_save(buffer.baseAddress, Int32(width), Int32(height), Int32(bands), target.path, &message, message.count)
        }
        guard status == TSV_OK.rawValue else {
            throw SampleImageError(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let plain = name.split(separator: "[", maxSplits: 1).first.map(String.init) ?? name
        return folder.appendingPathComponent(plain)
    }
}
