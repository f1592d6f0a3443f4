/// Printed labels as the tests draw them: a white area with the code and its quiet zones.
enum Labels {
    /// An EAN-13 at `moduleWidth` pixels a module, 11 modules of quiet zone left and 7 right
    /// (the specification's), bars `barHeight` high, plus a margin above and below.
    static func ean13(_ digits: String, moduleWidth: Int = 3, barHeight: Int = 80) -> Canvas {
        linear(LinearCodes.ean13(digits), quietLeft: 11, quietRight: 7, moduleWidth: moduleWidth, barHeight: barHeight)
    }

    static func ean8(_ digits: String, moduleWidth: Int = 3, barHeight: Int = 80) -> Canvas {
        linear(LinearCodes.ean8(digits), quietLeft: 7, quietRight: 7, moduleWidth: moduleWidth, barHeight: barHeight)
    }

    static func interleaved2of5(_ digits: String, moduleWidth: Int = 3, barHeight: Int = 80) -> Canvas {
        linear(LinearCodes.interleaved2of5(digits), quietLeft: 10, quietRight: 10, moduleWidth: moduleWidth, barHeight: barHeight)
    }

    /// A Code 128 with its 10-module quiet zones.
    static func code128(_ parts: [LinearCodes.Code128Part], moduleWidth: Int = 3, barHeight: Int = 80) -> Canvas {
        linear(LinearCodes.code128(parts), quietLeft: 10, quietRight: 10, moduleWidth: moduleWidth, barHeight: barHeight)
    }

    static func linear(_ modules: [Bool], quietLeft: Int, quietRight: Int, moduleWidth: Int, barHeight: Int) -> Canvas {
        let margin = 10 * moduleWidth
        var label = Canvas(width: (quietLeft + modules.count + quietRight) * moduleWidth, height: barHeight + 2 * margin)
        label.drawBars(modules, x: quietLeft * moduleWidth, y: margin, moduleWidth: moduleWidth, barHeight: barHeight)
        return label
    }

    /// A QR code with its 4-module quiet zone.
    static func qr(_ code: QRCode, moduleSize: Int = 4) -> Canvas {
        var label = Canvas(width: (code.size + 8) * moduleSize, height: (code.size + 8) * moduleSize)
        label.drawQR(code, x: 4 * moduleSize, y: 4 * moduleSize, moduleSize: moduleSize)
        return label
    }
}
