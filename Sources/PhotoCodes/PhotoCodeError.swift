import PhotoPreview

/// Why no codes could be looked for in a photo. Each case carries one sentence for the screen;
/// `detail` keeps the library's own words for the log. A photo with no code in it is not an
/// error: it gives an empty list.
public enum PhotoCodeError: Error, Hashable, Sendable {
    /// The photo could not be read: the failures previews meet, from the same decoder and
    /// limits, so the two cannot disagree about what a file is.
    case photo(PreviewError)
    /// zbar did not start.
    case readerUnavailable(detail: String)
    /// libzbar could not be loaded (it is opened on the first scan).
    case libraryMissing(ImageLibraryMissing)

    /// One sentence for the screen: the preview's, where it does not speak of previews.
    public var sentence: String {
        switch self {
        case .photo(.unsupportedFormat): "This file is not a photo tabshell can read codes from."
        case .photo(.tooLarge(let width, let height)): "Too large to read codes from: \(width) × \(height) pixels."
        case .photo(.decoderUnavailable): "Codes cannot be read from photos: the image library did not start."
        case .photo(.libraryMissing(let missing)), .libraryMissing(let missing):
            "Codes cannot be read from photos without \(missing.library.name) (package \(missing.library.package))."
        case .photo(let failure): failure.sentence
        case .readerUnavailable: "Codes cannot be read from photos: the barcode library did not start."
        }
    }

    /// The underlying library's message, for the log (nil when the sentence says it all).
    public var detail: String? {
        switch self {
        case .photo(let failure): failure.detail
        case .readerUnavailable(let detail): detail
        case .libraryMissing(let missing): missing.detail
        }
    }
}
