import Foundation

extension DemoPNG {
    /// The demo's pictures with their sizes.
    package static func demoPictureFacts() -> [(name: String, width: Int, height: Int, bytes: [UInt8])] {
        [
            ("coffee-beans-front.png", 48, 64, DemoPNG.encode(width: 48, height: 64, pixel: coffeeBag)),
            ("coffee-beans-barcode.png", 64, 32, DemoPNG.encode(width: 64, height: 32, pixel: barcodeBars)),
        ]
    }

    /// The demo's sample photos as files would hold them: name and PNG bytes.
    package static func demoPictures() -> [(name: String, bytes: [UInt8])] {
        demoPictureFacts().map { ($0.name, $0.bytes) }
    }
}

/// A brown bag with a cream label.
private func coffeeBag(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
    let onLabel: Bool = (10..<38).contains(x) && (20..<44).contains(y)
    if onLabel { return (240, 226, 196) }
    let shade = UInt8(96 + (x + y) % 16)
    return (shade, 58, 32)
}

/// Black bars of varying width on white.
private func barcodeBars(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
    let inside: Bool = y > 3 && y < 28 && x > 3 && x < 60
    let pattern: Int = (x * 7 + x / 3) % 5
    return inside && pattern < 2 ? (0, 0, 0) : (255, 255, 255)
}
