import Foundation
import PhotoPreview
import Synchronization

/// The real decoder, counting how often it is asked for headers and for pixels.
final class CountingDecoder: PhotoDecoding {
    private let real = VipsPhotoDecoder()
    private let headerCount = Atomic<Int>(0)
    private let decodeCount = Atomic<Int>(0)

    var headers: Int { headerCount.load(ordering: .sequentiallyConsistent) }
    var decodes: Int { decodeCount.load(ordering: .sequentiallyConsistent) }

    func readHeader(of file: URL) throws(PreviewError) -> PhotoHeader {
        headerCount.add(1, ordering: .sequentiallyConsistent)
        return try real.readHeader(of: file)
    }

    func decode(_ file: URL, fitting box: PixelSize) throws(PreviewError) -> DecodedImage {
        decodeCount.add(1, ordering: .sequentiallyConsistent)
        return try real.decode(file, fitting: box)
    }
}
