import CImageStack
import Testing

@testable import PhotoCodes

/// The parts the drawn codes do not reach: identifiers of symbologies the tests do not draw,
/// and the shrink for the QR pass.
@Suite struct InternalsTests {
    @Test func everyReadSymbologyHasAnAIMIdentifier() {
        for type in ZbarScanner.linearTypes + [ZBAR_QRCODE] {
            #expect(AIMIdentifiers.identifier(for: type, gs1: false, aimFlagged: false) != nil, "\(type)")
        }
        #expect(AIMIdentifiers.identifier(for: ZBAR_CODE39, gs1: false, aimFlagged: false) == "]A0")
        #expect(AIMIdentifiers.identifier(for: ZBAR_DATABAR, gs1: true, aimFlagged: false) == "]e0")
        #expect(AIMIdentifiers.identifier(for: ZBAR_DATABAR_EXP, gs1: true, aimFlagged: false) == "]e0")
        #expect(AIMIdentifiers.identifier(for: ZBAR_CODE128, gs1: false, aimFlagged: true) == "]C2")
        #expect(AIMIdentifiers.identifier(for: ZBAR_QRCODE, gs1: false, aimFlagged: true) == "]Q5")
        // GS1 wins over the AIM flag; a symbology without a GS1 form keeps its plain identifier.
        #expect(AIMIdentifiers.identifier(for: ZBAR_CODE128, gs1: true, aimFlagged: true) == "]C1")
        #expect(AIMIdentifiers.identifier(for: ZBAR_EAN13, gs1: true, aimFlagged: false) == "]E0")
        #expect(AIMIdentifiers.identifier(for: ZBAR_CODE93, gs1: false, aimFlagged: false) == nil)
    }

    @Test func theQRPassReadsNothingLinearAndTheLinearPassNoQR() {
        #expect(!ZbarScanner.Pass.linear.types.contains(ZBAR_QRCODE))
        #expect(ZbarScanner.Pass.qr.types == [ZBAR_QRCODE])
        #expect(Set(ZbarScanner.Pass.all.types.map(\.rawValue)) == Set((ZbarScanner.linearTypes + [ZBAR_QRCODE]).map(\.rawValue)))
    }

    @Test func shrinkingAveragesWholeAndPartialBlocks() throws {
        // 3 × 3 by 2: one whole 2 × 2 block, two 1 × 2 / 2 × 1 edges, one 1 × 1 corner.
        let image = try #require(GreyImage(width: 3, height: 3, pixels: [0, 100, 50, 200, 100, 50, 10, 20, 255]))
        let small = image.shrunk(by: 2)
        #expect(small.width == 2 && small.height == 2)
        #expect(small.pixels == [100, 50, 15, 255])
        #expect(image.shrunk(by: 1).pixels == image.pixels)
        #expect(GreyImage(width: 2, height: 2, pixels: [1, 2, 3]) == nil)
    }
}
