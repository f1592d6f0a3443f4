import Domain
import Foundation
import GRDB
import Scanning
import Storage

extension AppDatabase {
    /// Fills `db` with a small demo that tells a story a newcomer can follow in a minute: four
    /// Inbox requests (barcode, note, photos and product; the product one already answered, the
    /// others waiting for a capture) and eight History records spread over the last week, two of
    /// them answering the product request, one with two real photos (small PNGs generated here).
    /// Dates are relative to `now`.
    ///
    /// The photo files are written to the media folder first and the rows in one transaction
    /// after, as Done does (docs/durability.md).
    public static func seedDemo(_ db: AppDatabase, now: Date) throws(StorageError) {
        let minute: TimeInterval = 60, hour = 60 * minute, day = 24 * hour
        func ago(_ interval: TimeInterval) -> Date { now.addingTimeInterval(-interval) }
        let photos = try writeDemoPhotos(db.media)

        let store = db, path = db.url.path
        try db.write { db in
            func addRequest(
                _ title: String, body: String = "", _ kind: CaptureKind, _ createdAt: Date, doneAt: Date? = nil
            ) throws -> Int64 {
                let status = doneAt == nil ? RequestStatus.pending : .done
                let insert: StoreSQL = """
                    INSERT INTO request (title, body, kind, status, created_at, done_at)
                    VALUES (\(title), \(body), \(kind.rawValue), \(status.rawValue), \(createdAt), \(doneAt)) RETURNING id
                    """
                return try SQLiteStatements(db: db, path: path).integer(insert) ?? db.lastInsertedRowID
            }
            func addCapture(_ submission: CaptureSubmission, _ createdAt: Date, photos: [StagedPhoto] = []) throws {
                _ = try CaptureRows.insert(
                    submission, createdAt: createdAt, stagingID: nil, capturedBy: nil, product: nil, uid: nil,
                    store.captureSteps(submission, photos: photos, db), SQLiteStatements(db: db, path: path))
            }

            _ = try addRequest(
                "Scan the shelf label in aisle 4", body: "The one under the olive oil.", .barcode, ago(2 * hour))
            _ = try addRequest(
                "Write down the delivery notes", body: "Who signed, how many boxes,\nand anything damaged.", .note,
                ago(30 * minute))
            _ = try addRequest("Photograph the dented box", .photos, ago(1 * day))
            let coffee = try addRequest(
                "Check the coffee beans product code", body: "Back room, top shelf.", .product, ago(3 * day),
                doneAt: ago(2 * day))

            try addCapture(CaptureSubmission(kind: .barcode, barcode: Barcode(value: "4006381333931", symbology: .ean13)), ago(5 * minute))
            try addCapture(CaptureSubmission(kind: .note, note: "寿司 🍣 sushi"), ago(20 * minute))
            try addCapture(CaptureSubmission(kind: .barcode, barcode: Barcode(value: "036000291452", symbology: .upcA)), ago(1 * hour))
            try addCapture(
                CaptureSubmission(kind: .note, note: "Delivery arrived at 9:40.\nTwo boxes, one dented.\nSigned by Ana."),
                ago(3 * hour))
            try addCapture(CaptureSubmission(kind: .barcode, barcode: Barcode(value: "96385074", symbology: .ean8)), ago(26 * hour))
            try addCapture(
                CaptureSubmission(kind: .note, note: "The beans moved to the back room, top shelf.", requestID: coffee),
                ago(2 * day - 10 * minute))
            try addCapture(
                CaptureSubmission(
                    kind: .product, barcode: Barcode(value: "5901234123457", symbology: .ean13), requestID: coffee),
                ago(2 * day), photos: photos)
            try addCapture(CaptureSubmission(kind: .barcode, barcode: Barcode(value: "7622210449283", symbology: .ean13)), ago(6 * day))
        }
    }
}

extension AppDatabase {
    /// Two small PNGs of the coffee beans, written (0600) into the media folder and synced.
    static func writeDemoPhotos(_ media: MediaStore) throws(StorageError) -> [StagedPhoto] {
        let directory = try media.prepare(media.mediaDirectory)
        let pictures = DemoPNG.demoPictureFacts()
        var photos: [StagedPhoto] = []
        for picture in pictures {
            let storedName = MediaStore.newStoredName(for: .png)
            try DurableFiles.writeAtomically(Data(picture.bytes), to: directory + "/" + storedName)
            photos.append(
                StagedPhoto(
                    storedName: storedName, originalName: picture.name, format: .png,
                    pixelWidth: picture.width, pixelHeight: picture.height, byteSize: Int64(picture.bytes.count)))
        }
        try DurableFiles.syncDirectory(directory)
        return photos
    }
}
