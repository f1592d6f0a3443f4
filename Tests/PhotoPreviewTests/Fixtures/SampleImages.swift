import CImageStack
import Foundation
import TestSupport

struct SampleImageError: Error, CustomStringConvertible {
    let description: String
}

/// Images made in the test, saved with libvips (the suffix picks the format).
enum SampleImages {
    typealias RGB = (UInt8, UInt8, UInt8)

    /// Left half `left`, right half `right`.
    static func halves(width: Int, height: Int, left: RGB, right: RGB) -> [UInt8] {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for _ in 0..<height {
            for x in 0..<width {
                let color = x < width / 2 ? left : right
                pixels.append(contentsOf: [color.0, color.1, color.2])
            }
        }
        return pixels
    }

    /// Smooth gradients plus deterministic noise: compresses like a photo, not like a flat area.
    static func photoLike(width: Int, height: Int, seed: UInt64 = 1) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 3
                let noise = Int(random.next() % 32)
                pixels[index] = UInt8(clamping: x * 255 / max(1, width) / 2 + noise + 60)
                pixels[index + 1] = UInt8(clamping: y * 255 / max(1, height) / 2 + noise + 40)
                pixels[index + 2] = UInt8(clamping: (x + y) * 255 / max(1, width + height) / 2 + noise)
            }
        }
        return pixels
    }

    /// Saves RGB pixels; `name` may carry vips save options, as in "photo.jpg[Q=90]".
    @discardableResult
    static func save(_ pixels: [UInt8], width: Int, height: Int, bands: Int = 3, as name: String, in folder: URL) throws -> URL {
        let target = folder.appendingPathComponent(name)
        var message = [CChar](repeating: 0, count: 512)
        let status = pixels.withUnsafeBufferPointer { buffer in
            tsv_save(buffer.baseAddress, Int32(width), Int32(height), Int32(bands), target.path, &message, message.count)
        }
        guard status == TSV_OK.rawValue else {
            throw SampleImageError(description: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        // The options in brackets are not part of the file's name.
        let plain = name.split(separator: "[", maxSplits: 1).first.map(String.init) ?? name
        return folder.appendingPathComponent(plain)
    }
}
