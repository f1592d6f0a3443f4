import CImageStack
import Foundation
import PhotoPreview

/// A photo made small enough to hand an agent: at most 1024 px on its longest side and
/// 512 KB, as JPEG (alpha flattened onto white), decoded by libvips through the previewer's
/// pipeline, so with its limits: a photo whose header asks for more is refused undecoded.
enum PhotoThumbnail {
    static let longestSide = 1024
    static let maximumBytes = 512 * 1024

    struct Image {
        var bytes: Data
        var width: Int
        var height: Int
    }

    struct Failure: Error {
        let sentence: String
    }

    static func jpeg(of file: URL) throws(Failure) -> Image {
        let decoded: DecodedImage
        do throws(PreviewError) {
            decoded = try PreviewPipeline().decode(file) { _ in PixelSize(width: longestSide, height: longestSide) }
        } catch {
            throw Failure(sentence: error.sentence)
        }
        let width = decoded.size.width
        let height = decoded.size.height
        var rgb = [UInt8](repeating: 255, count: width * height * 3)
        decoded.rgba.withUnsafeBufferPointer { source in
            for pixel in 0..<(width * height) {
                let alpha = Int(source[pixel * 4 + 3])
                for band in 0..<3 {
                    rgb[pixel * 3 + band] = UInt8((Int(source[pixel * 4 + band]) * alpha + 255 * (255 - alpha)) / 255)
                }
            }
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tabshell-mcp-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Failure(sentence: "no temporary folder for the picture")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        for quality in [85, 70, 55, 40] {
            let target = folder.appendingPathComponent("photo-\(quality).jpg")
            var message = [CChar](repeating: 0, count: 512)
            let status = rgb.withUnsafeBufferPointer { pixels in
                message.withUnsafeMutableBufferPointer { buffer in
                    tsv_save(pixels.baseAddress, Int32(width), Int32(height), 3, target.path + "[Q=\(quality),strip]", buffer.baseAddress, buffer.count)
                }
            }
            guard status == TSV_OK.rawValue, let bytes = try? Data(contentsOf: target) else {
                throw Failure(sentence: "the picture could not be written: \(String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
            }
            if bytes.count <= maximumBytes { return Image(bytes: bytes, width: width, height: height) }
        }
        throw Failure(sentence: "even at low quality the picture is over \(maximumBytes / 1024) KB")
    }
}

extension Error {
    /// One sentence for an agent: a thumbnail's own, else the error's description.
    var sentence: String {
        (self as? PhotoThumbnail.Failure)?.sentence ?? String(describing: self)
    }
}
