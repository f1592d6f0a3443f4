import Foundation
import PhotoCodes
import Scanning
import TestSupport
import Testing

/// Codes the tests draw themselves, read back by zbar through the whole path (file, header,
/// limits, grey decode, scan).
@Suite struct ReadingCodesTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    static let ean = "4006381333931"

    @Test func anEAN13IsFoundWithItsDigits() throws {
        #expect(LinearCodes.gs1CheckDigit(String(Self.ean.prefix(12))) == 1)
        let file = try Labels.ean13(Self.ean).save(as: "ean.png", in: folder.url)
        let codes = try PhotoCodeReader.codes(in: file)
        #expect(codes.count == 1)
        let code = try #require(codes.first)
        #expect(code.symbology == "EAN-13")
        #expect(code.text == Self.ean)
        #expect(code.aimIdentifier == "]E0")
        #expect(!code.isGS1)
        #expect(code.orientation == .up)
        // The bars start after 11 quiet modules of 3 px and are 95 modules wide.
        #expect(code.box.x >= 30 && code.box.x <= 36, "\(code.box)")
        #expect(code.box.x + code.box.width >= 30 + 95 * 3 - 6, "\(code.box)")
    }

    @Test func whatAScannerWouldSendParsesAsTheSameEAN() throws {
        let file = try Labels.ean13(Self.ean).save(as: "ean.png", in: folder.url)
        let code = try #require(try PhotoCodeReader.codes(in: file).first)
        #expect(code.scannerInput == "]E0" + Self.ean)
        let scan = Scan.parse(code.scannerInput)
        #expect(scan.symbology == .ean13)
        #expect(scan.code == Self.ean)
        #expect(scan.isValid)
    }

    @Test func anISBNIsReadAsISBN13WithAllThirteenDigits() throws {
        let file = try Labels.ean13("9780306406157").save(as: "isbn.png", in: folder.url)
        let codes = try PhotoCodeReader.codes(in: file)
        #expect(codes.map(\.symbology) == ["ISBN-13"])
        #expect(codes.map(\.text) == ["9780306406157"])
    }

    @Test func aUPCAIsReadAsTwelveDigits() throws {
        // A UPC-A is an EAN-13 whose first digit is 0.
        let file = try Labels.ean13("0036000291452").save(as: "upca.png", in: folder.url)
        let codes = try PhotoCodeReader.codes(in: file)
        #expect(codes.map(\.symbology) == ["UPC-A"])
        #expect(codes.map(\.text) == ["036000291452"])
    }

    @Test func anEAN8IsReadWithItsOwnIdentifier() throws {
        #expect(LinearCodes.gs1CheckDigit("9638507") == 4)
        let file = try Labels.ean8("96385074").save(as: "ean8.png", in: folder.url)
        let codes = try PhotoCodeReader.codes(in: file)
        #expect(codes.map(\.symbology) == ["EAN-8"])
        #expect(codes.map(\.scannerInput) == ["]E496385074"])
    }

    @Test func anITF14IsReadAsInterleaved2of5AndParsesAsITF14() throws {
        let itf = "15400141288763"
        #expect(LinearCodes.gs1CheckDigit(String(itf.prefix(13))) == 3)
        let file = try Labels.interleaved2of5(itf).save(as: "itf.png", in: folder.url)
        let code = try #require(try PhotoCodeReader.codes(in: file).first)
        #expect(code.symbology == "I2/5")
        #expect(code.text == itf)
        #expect(code.aimIdentifier == "]I0")
        let scan = Scan.parse(code.scannerInput)
        #expect(scan.symbology == .itf14)
        #expect(scan.isValid)
    }

    @Test(arguments: [1, 2, 3])
    func anEANTurnedAnyWayIsStillFound(quarterTurns: Int) throws {
        var canvas = Labels.ean13(Self.ean)
        for _ in 0..<quarterTurns { canvas = canvas.rotatedClockwise() }
        let file = try canvas.save(as: "turned.png", in: folder.url)
        let codes = try PhotoCodeReader.codes(in: file)
        #expect(codes.map(\.text) == [Self.ean])
        let expected: CodeOrientation = [.up, .right, .down, .left][quarterTurns]
        #expect(codes.first?.orientation == expected)
        if quarterTurns % 2 == 1 {
            // Read down a column: the box is tall, not wide.
            let box = try #require(codes.first?.box)
            #expect(box.height > box.width, "\(box)")
        }
    }

    @Test func aGS1128KeepsItsSeparatorAndParsesIntoFields() throws {
        let label = Labels.code128([
            .fnc1, .digits("0109506000134352"), .digits("17201225"), .digits("10"), .text("ABC123"), .fnc1, .text("21XYZ"),
        ])
        let file = try label.save(as: "gs1-128.png", in: folder.url)
        let code = try #require(try PhotoCodeReader.codes(in: file).first)
        #expect(code.symbology == "CODE-128")
        #expect(code.isGS1)
        #expect(code.aimIdentifier == "]C1")
        // The leading FNC1 is the GS1 flag, not data; the one after the variable-length lot is 0x1D.
        #expect(code.text == "01095060001343521720122510ABC123\u{1D}21XYZ")
        let scan = Scan.parse(code.scannerInput, options: ScanOptions(today: CalendarDate(year: 2020, month: 1, day: 1)))
        #expect(scan.error == nil, "\(String(describing: scan.error))")
        #expect(scan.symbology == .gs1128)
        #expect(scan.gtin == "09506000134352")
        #expect(scan.lot == "ABC123")
        #expect(scan.serial == "XYZ")
    }

    @Test func aPlainCode128IsNotGS1() throws {
        let file = try Labels.code128([.text("TABSHELL-42")]).save(as: "code128.png", in: folder.url)
        let codes = try PhotoCodeReader.codes(in: file)
        #expect(codes.map(\.text) == ["TABSHELL-42"])
        #expect(codes.first?.aimIdentifier == "]C0")
        #expect(codes.first?.isGS1 == false)
    }

    @Test func aQRCodeIsRead() throws {
        let text = "https://example.com/item/42?lot=A7"
        let qr = try #require(QRCode(bytes: Array(text.utf8)))
        let file = try Labels.qr(qr).save(as: "qr.png", in: folder.url)
        let codes = try PhotoCodeReader.codes(in: file)
        #expect(codes.map(\.symbology) == ["QR-Code"])
        #expect(codes.map(\.text) == [text])
        #expect(codes.first?.aimIdentifier == "]Q1")
    }

    @Test func aGS1QRCodeIsFlaggedAndParses() throws {
        let data = "0109506000134352" + "10LOT7" + "\u{1D}" + "2142"
        let qr = try #require(QRCode(bytes: Array(data.utf8), gs1: true))
        let file = try Labels.qr(qr).save(as: "gs1-qr.png", in: folder.url)
        let code = try #require(try PhotoCodeReader.codes(in: file).first)
        #expect(code.isGS1)
        #expect(code.aimIdentifier == "]Q3")
        #expect(code.text == data)
        let scan = Scan.parse(code.scannerInput)
        #expect(scan.gtin == "09506000134352")
        #expect(scan.lot == "LOT7")
        #expect(scan.serial == "42")
    }

    @Test func severalCodesComeTopToBottom() throws {
        var sheet = Canvas(width: 700, height: 700)
        let qr = try #require(QRCode(bytes: Array("second".utf8)))
        sheet.paste(Labels.qr(qr), x: 400, y: 420)
        sheet.paste(Labels.ean13(Self.ean), x: 20, y: 20)
        let file = try sheet.save(as: "sheet.png", in: folder.url)
        let codes = try PhotoCodeReader.codes(in: file)
        #expect(codes.map(\.text) == [Self.ean, "second"])
        #expect(codes.map(\.symbology) == ["EAN-13", "QR-Code"])
    }

    @Test func anEANOnAPhotoSavedAsJPEGIsFoundWhereItIs() throws {
        var photo = Canvas.photoLike(width: 1600, height: 1200)
        photo.paste(Labels.ean13(Self.ean, moduleWidth: 4, barHeight: 120), x: 700, y: 500)
        let file = try photo.save(as: "shelf.jpg[Q=85]", in: folder.url)
        let codes = try PhotoCodeReader.codes(in: file)
        #expect(codes.map(\.text) == [Self.ean])
        let box = try #require(codes.first?.box)
        #expect((700...1200).contains(box.x + box.width / 2) && (500...700).contains(box.y + box.height / 2), "\(box)")
    }

    @Test func aCodeScannedAtASmallerSizeIsPlacedInThePhotosPixels() throws {
        var photo = Canvas(width: 2400, height: 1200)
        photo.paste(Labels.ean13(Self.ean, moduleWidth: 8, barHeight: 300), x: 1200, y: 600)
        let file = try photo.save(as: "large.png", in: folder.url)
        // Scanned at 1200 × 600: half size, so zbar's coordinates are doubled back.
        let codes = try PhotoCodeReader.codes(in: file, limits: PhotoCodeLimits(scanSide: 1200))
        let box = try #require(codes.first?.box)
        // Bars from 1200 + 11 × 8 = 1288 to 1288 + 95 × 8 = 2048.
        #expect(abs(box.x - 1288) <= 16 && abs(box.x + box.width - 2048) <= 16, "\(box)")
        #expect((600...1100).contains(box.y + box.height / 2), "\(box)")
    }

    @Test func transparentPixelsAreReadAsWhitePaper() throws {
        // Bars opaque black on a background that is transparent and stored black: without
        // flattening onto white the whole image would be one dark bar.
        var label = Canvas(width: 113 * 3, height: 140, bands: 4, fill: 0)
        label.drawBars(LinearCodes.ean13(Self.ean), x: 11 * 3, y: 30, moduleWidth: 3, barHeight: 80, color: [0, 0, 0, 255])
        let file = try label.save(as: "transparent.png", in: folder.url)
        #expect(try PhotoCodeReader.codes(in: file).map(\.text) == [Self.ean])
    }

    @Test func aPhotoWithoutACodeGivesNothing() throws {
        let file = try Canvas.photoLike(width: 1600, height: 1200).save(as: "plain.jpg[Q=85]", in: folder.url)
        let started = ContinuousClock.now
        let codes = try PhotoCodeReader.codes(in: file)
        print("PhotoCodes: 1600 × 1200 JPEG without a code scanned in \(ContinuousClock.now - started)")
        #expect(codes.isEmpty)
    }

    @Test func readersOnManyThreadsAtOnceAgree() async throws {
        let qr = try #require(QRCode(bytes: Array("parallel".utf8)))
        var sheet = Canvas(width: 600, height: 400)
        sheet.paste(Labels.ean13(Self.ean), x: 10, y: 10)
        sheet.paste(Labels.qr(qr), x: 420, y: 200)
        let file = try sheet.save(as: "parallel.png", in: folder.url)
        let expected = try PhotoCodeReader.codes(in: file)
        #expect(expected.count == 2)
        let results = try await withThrowingTaskGroup(of: [FoundCode].self) { group in
            for _ in 0..<8 {
                group.addTask { try PhotoCodeReader.codes(in: file) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(results.allSatisfy { $0 == expected })
    }
}
