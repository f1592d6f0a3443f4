import Foundation

/// Checks made on the file itself before any library opens it, so the common failures get
/// their own sentences rather than a decoder's.
public enum PhotoFile {
    public static func checkReadable(_ file: URL) throws(PreviewError) {
        let attributes: [FileAttributeKey: Any]
        do {
            // The attributes of what a link points to: a linked photo is a photo.
            attributes = try FileManager.default.attributesOfItem(atPath: file.resolvingSymlinksInPath().path)
        } catch {
            if !FileManager.default.fileExists(atPath: file.path) { throw .missing }
            throw .unreadable(detail: "\(error)")
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            throw .unreadable(detail: "\(file.path) is not a regular file")
        }
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw .unreadable(detail: "no permission to read \(file.path)")
        }
        if let size = attributes[.size] as? NSNumber, size.int64Value == 0 {
            throw .empty
        }
    }
}
